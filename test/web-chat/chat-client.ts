import { once } from 'node:events';
import WebSocket from 'ws';

/** A frame the host sent, parsed. */
export type Frame = { type: string; [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A test client of `/api/ws/:sourceRef` that queues every frame it receives, so a test can wait
 * for the next one of a type without racing the socket.
 */
export class ChatClient {
  readonly #frames: Frame[] = [];
  readonly #waiters = new Set<() => void>();
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.#frames.push(JSON.parse(String(data)) as Frame);
      this.#wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.#wake();
    });
  }

  /** Opens the socket and, unless `hello` is false, says hello with the token and last seq given. */
  static async connect(url: string, hello: { token?: string; lastSeq?: number } | false = {}): Promise<ChatClient> {
    const ws = new WebSocket(url);
    await once(ws, 'open');
    const client = new ChatClient(ws);
    if (hello) client.send({ type: 'hello', ...hello });
    return client;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends a chat message with a fresh client id; returns the id. */
  say(text: string, id = `m-${Math.random().toString(36).slice(2)}`): string {
    this.send({ type: 'message', id, text });
    return id;
  }

  /** The next frame of `type` (frames of other types before it are dropped). */
  next(type: string, timeoutMs = 10_000): Promise<Frame> {
    return this.#first(type, timeoutMs, { dropEarlier: true });
  }

  /**
   * The first frame of `type` not yet taken; frames of other types stay queued, for frames whose
   * order the host does not fix (a duplicate's ack and the first message's reply, say).
   */
  take(type: string, timeoutMs = 10_000): Promise<Frame> {
    return this.#first(type, timeoutMs, { dropEarlier: false });
  }

  async #first(type: string, timeoutMs: number, { dropEarlier }: { dropEarlier: boolean }): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.#frames.findIndex((frame) => frame.type === type);
      if (index >= 0) return dropEarlier ? this.#frames.splice(0, index + 1).at(-1)! : this.#frames.splice(index, 1)[0]!;
      if (this.closed) throw new Error(`socket closed (${this.closed.code} ${this.closed.reason}) while waiting for a ${type} frame`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(this.#frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.add(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Resolves with the close code once the host closed the socket. */
  async closedByHost(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    if (!this.closed) await Promise.race([once(this.ws, 'close'), new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
    if (!this.closed) throw new Error('the host did not close the socket');
    return this.closed;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closing = once(this.ws, 'close');
    this.ws.close();
    await closing;
  }

  #wake(): void {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }
}

/** The HTTP status (and body) an upgrade to `url` is answered with; 101 when it is accepted. */
export function upgradeStatus(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => (ws.close(), resolve({ status: 101, body: '' })));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
  });
}
