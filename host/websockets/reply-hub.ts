import { randomUUID } from 'node:crypto';
import type { SendMessageResult } from '@bot-ai/api';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EncodedReply, FrameDelivery } from '../channels/calls/frame-delivery.ts';
import { PgListener } from '../db/pg-listener.ts';
import { REPLAY_BATCH, REPLY_NOTICE_CHANNEL, type WebChatStore } from './web-chat-store.ts';

/** A live socket of one session, as the hub sees it. */
export interface ReplySink {
  readonly sessionId: string;
  /** Writes one frame to the socket (nothing when it is closing). */
  send(text: string): void;
}

interface SinkState {
  sink: ReplySink;
  /** The last seq this socket has been sent (or the client said it saw). */
  lastSeq: number;
  pumping: boolean;
  dirty: boolean;
}

export interface ReplyHubOptions {
  db: Knex;
  store: WebChatStore;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * Delivers WebSocket channels' replies: each is committed first (WebChatStore, once per send
 * key), then written to the session's sockets on this instance; other instances hear of it by
 * NOTIFY and fetch it for the sockets they hold. A socket catches up from the store whenever
 * it may have missed something (on connect, after a gap, after the listener reconnects), so a
 * reply reaches the client exactly in seq order, live or on its next connect.
 * @example
 * const hub = new ReplyHub({ db, store, logger });
 * await hub.start();
 * const unregister = hub.register(sink, lastSeqTheClientSaw);
 */
export class ReplyHub implements FrameDelivery {
  readonly instanceId = randomUUID();
  readonly #options: ReplyHubOptions;
  readonly #sessions = new Map<string, Set<SinkState>>();
  #listener: PgListener | undefined;

  constructor(options: ReplyHubOptions) {
    this.#options = options;
  }

  /** Listens for replies stored by other instances. */
  async start(): Promise<void> {
    const { db, logger } = this.#options;
    this.#listener = new PgListener({
      db,
      channel: REPLY_NOTICE_CHANNEL,
      label: 'web chat reply',
      logger,
      onNotice: (payload) => this.#noticed(payload),
      onReconnected: () => this.#catchUpAll(),
    });
    await this.#listener.start();
  }

  async close(): Promise<void> {
    await this.#listener?.close();
  }

  /** How many sockets this instance holds. */
  get socketCount(): number {
    let count = 0;
    for (const states of this.#sessions.values()) count += states.size;
    return count;
  }

  /** Starts sending the session's replies after `lastSeq` to `sink`; returns the unregister function. */
  register(sink: ReplySink, lastSeq: number): () => void {
    const state: SinkState = { sink, lastSeq, pumping: false, dirty: false };
    const states = this.#sessions.get(sink.sessionId) ?? new Set<SinkState>();
    states.add(state);
    this.#sessions.set(sink.sessionId, states);
    void this.#pump(state);
    return () => {
      states.delete(state);
      if (states.size === 0 && this.#sessions.get(sink.sessionId) === states) this.#sessions.delete(sink.sessionId);
    };
  }

  /** FrameDelivery: commits the reply, then pushes it to this instance's sockets of the session. */
  async deliver({ event, frame, idempotencyKey }: EncodedReply): Promise<SendMessageResult> {
    const sessionId = event.senderForeignId ?? '';
    const message = parseFrame(frame);
    let stored: { seq: number; inserted: boolean };
    try {
      stored = await this.#options.store.storeReply({ sessionId, sendKey: idempotencyKey, message, instanceId: this.instanceId });
    } catch (error) {
      // Storing is idempotent per send key, so the outbox may safely try again.
      throw Object.assign(new Error('The web chat reply could not be stored', { cause: error }), { code: 'BOT_ERR_CHANNEL_UNAVAILABLE', status: 503 });
    }
    // Offered even when stored before (a retried send): a socket that already has it ignores it.
    for (const state of this.#sessions.get(sessionId) ?? []) this.#offer(state, stored.seq, message);
    return { mid: `web:${sessionId}:${stored.seq}` };
  }

  #offer(state: SinkState, seq: number, message: unknown): void {
    if (state.pumping) {
      state.dirty = true;
    } else if (seq === state.lastSeq + 1) {
      state.lastSeq = seq;
      state.sink.send(replyFrame(seq, message));
    } else if (seq > state.lastSeq) {
      void this.#pump(state);
    }
  }

  /** Sends every stored reply after the socket's last seq, in order; reruns when more arrived meanwhile. */
  async #pump(state: SinkState): Promise<void> {
    if (state.pumping) {
      state.dirty = true;
      return;
    }
    state.pumping = true;
    try {
      do {
        state.dirty = false;
        const replies = await this.#options.store.repliesAfter(state.sink.sessionId, state.lastSeq);
        for (const { seq, message } of replies) {
          state.lastSeq = seq;
          state.sink.send(replyFrame(seq, message));
        }
        if (replies.length >= REPLAY_BATCH) state.dirty = true;
      } while (state.dirty);
    } catch (error) {
      this.#options.logger.warn({ err: error, sessionId: state.sink.sessionId }, 'could not fetch web chat replies; the client gets them on reconnect');
    } finally {
      state.pumping = false;
    }
  }

  #noticed(payload: string | undefined): void {
    const [instanceId, sessionId, seqText] = (payload ?? '').split(':');
    if (instanceId === this.instanceId || !sessionId) return;
    const seq = Number(seqText);
    for (const state of this.#sessions.get(sessionId) ?? []) if (seq > state.lastSeq) void this.#pump(state);
  }

  #catchUpAll(): void {
    for (const states of this.#sessions.values()) for (const state of states) void this.#pump(state);
  }
}

/** The frame the client gets for one reply. */
export function replyFrame(seq: number, message: unknown): string {
  return JSON.stringify({ type: 'reply', seq, message });
}

/** A channel's frame as stored: its JSON, or the text itself when it is not JSON. */
function parseFrame(frame: string): unknown {
  try {
    return JSON.parse(frame);
  } catch {
    return frame;
  }
}
