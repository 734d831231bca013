import type { Logger } from 'pino';
import type { WebSocket, RawData } from 'ws';
import type { ChannelRegistry } from '../channels/channel-registry.ts';
import type { ChannelCalls } from '../channels/calls/channel-calls.ts';
import { errorCode } from '../errors/describe-error.ts';
import type { ErrorCode } from '../errors/error-codes.ts';
import type { InboxStore } from '../inbox/inbox-store.ts';
import { storableData } from '../json/storable.ts';
import type { SourceCache } from '../sources/source-cache.ts';
import type { SourceRow } from '../sources/source.ts';
import { FrameRateLimiter } from './frame-rate-limiter.ts';
import type { ReplyHub } from './reply-hub.ts';
import { CLOSE_CODES, helloFrameSchema, parseClientFrame, type ServerFrame } from './server-frames.ts';
import type { SessionTokens } from './session-tokens.ts';
import type { WebChatStore } from './web-chat-store.ts';

export interface SocketConnectionDeps {
  sources: Pick<SourceCache, 'get'>;
  channels: ChannelRegistry<ChannelCalls>;
  inbox: Pick<InboxStore, 'commit'>;
  store: WebChatStore;
  hub: ReplyHub;
  tokens: SessionTokens;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Frames per second a socket may send on average, and at once. */
  rateLimit: { perSecond: number; burst: number };
}

/**
 * One client socket of a WebSocket channel's source. The first frame must be `hello` (a session
 * token or none, and the last reply seq seen); every later frame is decoded in the channel's
 * sandbox and committed to the inbox before the client gets its `ack`. Frames of one socket are
 * handled in order, one at a time, so a conversation's messages are committed in the order sent.
 */
export class SocketConnection {
  readonly #ws: WebSocket;
  readonly #deps: SocketConnectionDeps;
  readonly #limiter: FrameRateLimiter;
  #source: SourceRow;
  #sessionId: string | undefined;
  #unregister: (() => void) | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(ws: WebSocket, source: SourceRow, deps: SocketConnectionDeps) {
    this.#ws = ws;
    this.#source = source;
    this.#deps = deps;
    this.#limiter = new FrameRateLimiter(deps.rateLimit);
    ws.on('message', (data, isBinary) => this.#received(data, isBinary));
    ws.on('close', () => this.#unregister?.());
    ws.on('error', (error) => deps.logger.warn({ err: error }, 'web socket error'));
  }

  #received(data: RawData, isBinary: boolean): void {
    if (!this.#limiter.take()) return this.#error('BOT_ERR_WS_RATE_LIMITED', 'Too many frames; slow down and send again');
    if (isBinary) return this.#error('BOT_ERR_WS_FRAME_MALFORMED', 'Frames are JSON text, not binary');
    const text = rawText(data);
    this.#queue = this.#queue
      .then(() => (this.#sessionId ? this.#frame(this.#sessionId, text) : this.#hello(text)))
      .catch((error: unknown) => {
        this.#deps.logger.error({ err: error, source: this.#source.ref }, 'web socket frame failed');
        this.#error('BOT_ERR_WS_UNAVAILABLE', 'The frame failed; send it again');
        // Without a session the socket is of no use: closing lets the client reconnect with backoff.
        if (!this.#sessionId) this.#ws.close(CLOSE_CODES.internalError, 'BOT_ERR_WS_UNAVAILABLE');
      });
  }

  async #hello(text: string): Promise<void> {
    const parsed = parseClientFrame(text);
    if (!parsed) return this.#error('BOT_ERR_WS_FRAME_MALFORMED', 'The frame is not valid JSON');
    const hello = helloFrameSchema.safeParse(parsed.value);
    if (!hello.success) return this.#error('BOT_ERR_WS_HELLO_REQUIRED', 'The first frame must be {"type":"hello","token"?,"lastSeq"?}', parsed.id);
    const { token } = hello.data;
    const session = token === undefined ? { sessionId: await this.#deps.store.createSession(this.#source.id), lastSeq: 0 } : await this.#resume(token);
    if (!session) {
      this.#error('BOT_ERR_WS_SESSION_INVALID', 'The session token is invalid; connect again without one');
      return this.#ws.close(CLOSE_CODES.sessionInvalid, 'BOT_ERR_WS_SESSION_INVALID');
    }
    const { sessionId } = session;
    this.#sessionId = sessionId;
    const fresh = this.#deps.tokens.sign({ sessionId, sourceId: this.#source.id });
    this.#send({ type: 'session', sessionId, token: fresh, resumed: token !== undefined, lastSeq: session.lastSeq });
    // A client claiming more than was ever sent (a stale copy, a reset database) gets what there is.
    const lastSeq = Math.min(hello.data.lastSeq ?? 0, session.lastSeq);
    if (this.#ws.readyState === this.#ws.OPEN) this.#unregister = this.#deps.hub.register({ sessionId, send: (frame) => this.#sendText(frame) }, lastSeq);
  }

  async #resume(token: string): Promise<{ sessionId: string; lastSeq: number } | undefined> {
    const sessionId = this.#deps.tokens.sessionOf(token, this.#source.id);
    if (!sessionId) return undefined;
    const resumed = await this.#deps.store.resumeSession(sessionId, this.#source.id);
    return resumed && { sessionId, lastSeq: resumed.lastSeq };
  }

  async #frame(sessionId: string, text: string): Promise<void> {
    const parsed = parseClientFrame(text);
    if (!parsed) return this.#error('BOT_ERR_WS_FRAME_MALFORMED', 'The frame is not valid JSON');
    if (!(await this.#refreshSource())) return;
    const source = this.#source;
    let result;
    try {
      result = await this.#deps.channels.call(source.channel, (sandbox) => sandbox.receiveFrame({ sessionId, data: text }, source));
    } catch (error) {
      this.#deps.logger.warn({ err: error, code: errorCode(error), source: source.ref }, 'the channel could not decode a frame');
      return this.#error('BOT_ERR_WS_UNAVAILABLE', 'The channel is unavailable; send the frame again later', parsed.id);
    }
    if (result.outcome === 'invalid') return this.#error('BOT_ERR_WS_FRAME_REJECTED', result.reason.message, parsed.id);
    // Committed before the ack: an acknowledged frame is in Postgres, and a resent one is stored once.
    let added: number;
    try {
      added = await this.#deps.inbox.commit({ sourceId: source.id, channel: source.channel, workflowId: undefined, events: storableData(result.events) });
    } catch (error) {
      this.#deps.logger.error({ err: error, source: source.ref }, 'a web socket frame could not be committed');
      return this.#error('BOT_ERR_WS_UNAVAILABLE', 'The message could not be stored; send it again', parsed.id);
    }
    this.#send({ type: 'ack', id: parsed.id, duplicate: result.events.length > 0 && added === 0 });
    if (added > 0 && this.#typingIndicator()) this.#send({ type: 'typing', on: true });
  }

  /** The source as it is now (the cache follows admin changes); closes the socket when it is gone or inactive. */
  async #refreshSource(): Promise<boolean> {
    const source = await this.#deps.sources.get(this.#source.ref);
    if (!source || source.id !== this.#source.id) {
      this.#ws.close(CLOSE_CODES.sourceUnknown, 'BOT_ERR_WS_SOURCE_UNKNOWN');
      return false;
    }
    if (!source.active) {
      this.#ws.close(CLOSE_CODES.sourceInactive, 'BOT_ERR_WS_SOURCE_INACTIVE');
      return false;
    }
    this.#source = source;
    return true;
  }

  #typingIndicator(): boolean {
    return this.#deps.channels.running(this.#source.channel)?.description.capabilities.typingIndicator === true;
  }

  #error(code: ErrorCode, message: string, id?: string): void {
    this.#send({ type: 'error', code, message, ...(id === undefined ? {} : { id }) });
  }

  #send(frame: ServerFrame): void {
    this.#sendText(JSON.stringify(frame));
  }

  #sendText(text: string): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(text);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
