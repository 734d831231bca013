import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

/**
 * One benchmark chat client: a socket of its own session that sends a message at a fixed pace
 * and times each one from send to its reply (the greeting workflow answers every message once,
 * in order, so replies match sends first in, first out).
 */
export class BenchChatClient {
  readonly latencies: number[] = [];
  /** Send → ack (the message committed), per timed message. */
  readonly ackLatencies: number[] = [];
  sent = 0;
  errors = 0;
  readonly #ws: WebSocket;
  readonly #pending: number[] = [];
  readonly #unacked: number[] = [];
  #timer: NodeJS.Timeout | undefined;
  #session: Promise<void>;
  #next = 0;

  private constructor(ws: WebSocket, readonly name: string) {
    this.#ws = ws;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#session = promise;
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string };
      if (frame.type === 'session') resolve();
      else if (frame.type === 'reply') this.#replied();
      else if (frame.type === 'ack') this.#acked();
      else if (frame.type === 'error') this.errors += 1;
    });
  }

  static async connect(url: string, name: string): Promise<BenchChatClient> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await once(ws, 'open');
    const client = new BenchChatClient(ws, name);
    ws.send(JSON.stringify({ type: 'hello' }));
    await client.#session;
    return client;
  }

  /** Messages sent and not yet answered. */
  get outstanding(): number {
    return this.#pending.length;
  }

  /** Sends one message now; `record` false for warm-up messages (not timed). */
  send(record = true): void {
    this.#pending.push(record ? performance.now() : Number.NaN);
    this.#unacked.push(this.#pending.at(-1)!);
    if (record) this.sent += 1;
    this.#ws.send(JSON.stringify({ type: 'message', id: `${this.name}-${this.#next++}`, text: `my name is ${this.name}` }));
  }

  /** Sends `perSecond` messages a second, starting after `offsetMs`, until stop(). */
  start(perSecond: number, offsetMs: number): void {
    this.#timer = setTimeout(() => {
      this.send();
      this.#timer = setInterval(() => this.send(), 1000 / perSecond);
    }, offsetMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#timer);
  }

  close(): void {
    this.stop();
    this.#ws.close();
  }

  #acked(): void {
    const sentAt = this.#unacked.shift();
    if (sentAt !== undefined && !Number.isNaN(sentAt)) this.ackLatencies.push(performance.now() - sentAt);
  }

  #replied(): void {
    const sentAt = this.#pending.shift();
    if (sentAt !== undefined && !Number.isNaN(sentAt)) this.latencies.push(performance.now() - sentAt);
  }
}
