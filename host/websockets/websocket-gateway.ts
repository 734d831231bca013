import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.ts';
import type { SourceRow } from '../sources/source.ts';
import { CLOSE_CODES } from './server-frames.ts';
import { SocketConnection, type SocketConnectionDeps } from './socket-connection.ts';

export interface WebSocketGatewayOptions extends SocketConnectionDeps {
  /** Largest frame a client may send; a larger one closes the socket (1009). Default 16 KiB. */
  maxFrameBytes?: number;
  /** Time between pings; a socket that did not answer the previous one is dropped. Default 30 s. */
  pingIntervalMs?: number;
}

/** How long a closing socket's peer has to answer the close frame at shutdown. */
const CLOSE_GRACE_MS = 2_000;

/** `/api/ws/:sourceRef`: the one path sockets are served at. */
const SOCKET_PATH = /^\/api\/ws\/([^/?#]+)\/?$/;

interface Refusal {
  code: ErrorCode;
  message: string;
}

/**
 * The host's live sockets: `GET /api/ws/:sourceRef` upgrades to a WebSocket when the source
 * exists, is active, and its channel is a running WebSocket channel; otherwise the upgrade is
 * answered with an HTTP error and the usual error body. Sockets are pinged to find dead peers.
 * @example
 * const gateway = new WebSocketGateway({ sources, channels, inbox, store, hub, tokens, logger, rateLimit });
 * gateway.attach(server);
 * await gateway.close(); // closes every socket with 1001
 */
export class WebSocketGateway {
  readonly #options: WebSocketGatewayOptions;
  readonly #wss: WebSocketServer;
  readonly #alive = new WeakSet<WebSocket>();
  readonly #pingTimer: NodeJS.Timeout;
  #closed = false;

  constructor(options: WebSocketGatewayOptions) {
    this.#options = options;
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 16 * 1024, perMessageDeflate: false });
    this.#pingTimer = setInterval(() => this.#pingAll(), options.pingIntervalMs ?? 30_000);
    this.#pingTimer.unref();
  }

  /** Serves socket upgrades of `server`. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.#upgrade(req, socket, head));
  }

  /** Sockets open on this instance. */
  get size(): number {
    return this.#wss.clients.size;
  }

  /**
   * Refuses new sockets and closes the open ones with 1001 (going away), so clients reconnect
   * elsewhere; a peer that does not answer the close within `CLOSE_GRACE_MS` is cut off.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#pingTimer);
    for (const ws of this.#wss.clients) ws.close(CLOSE_CODES.goingAway, 'server shutting down');
    // Resolves once every client socket is gone.
    const closed = new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    await Promise.race([closed, grace]);
    for (const ws of this.#wss.clients) ws.terminate();
    await closed;
  }

  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    try {
      const found = await this.#sourceFor(req.url ?? '');
      if ('code' in found) return refuse(socket, found);
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connected(ws, found));
    } catch (error) {
      this.#options.logger.error({ err: error }, 'web socket upgrade failed');
      refuse(socket, { code: 'BOT_ERR_INTERNAL', message: 'Internal error' });
    }
  }

  async #sourceFor(url: string): Promise<SourceRow | Refusal> {
    if (this.#closed) return { code: 'BOT_ERR_WS_CHANNEL_UNAVAILABLE', message: 'The host is shutting down; retry later' };
    const ref = SOCKET_PATH.exec(url.split('?')[0] ?? '')?.[1];
    if (!ref) return { code: 'BOT_ERR_HTTP_NOT_FOUND', message: 'No socket is served at this path' };
    const source = await this.#options.sources.get(decodeURIComponent(ref));
    if (!source) return { code: 'BOT_ERR_WS_SOURCE_UNKNOWN', message: 'Unknown source' };
    const channel = this.#options.channels.get(source.channel);
    if (channel && channel.description.kind !== 'websocket') return { code: 'BOT_ERR_WS_NOT_WEBSOCKET_CHANNEL', message: 'This source is not a live-socket channel' };
    if (!this.#options.channels.running(source.channel)) return { code: 'BOT_ERR_WS_CHANNEL_UNAVAILABLE', message: 'Channel unavailable; retry later' };
    if (!source.active) return { code: 'BOT_ERR_WS_SOURCE_INACTIVE', message: 'This source is not active' };
    return source;
  }

  #connected(ws: WebSocket, source: SourceRow): void {
    this.#alive.add(ws);
    ws.on('pong', () => this.#alive.add(ws));
    new SocketConnection(ws, source, this.#options);
  }

  #pingAll(): void {
    for (const ws of this.#wss.clients) {
      if (!this.#alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.#alive.delete(ws);
      ws.ping();
    }
  }
}

/** Answers a refused upgrade with a plain HTTP response carrying the usual error body. */
function refuse(socket: Duplex, { code, message }: Refusal): void {
  const status = ERROR_CODES[code].status;
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
