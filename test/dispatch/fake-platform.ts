import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: { recipient: { id: string }; message: { text: string; quick_replies?: unknown[] } };
}

/** How the platform holds one send (see `FakePlatform.hang`). */
export interface Hang {
  /** How long the send is held; a sender giving up sooner closes the connection first. */
  ms: number;
  /** True: the message is recorded at once and only the answer is late. False: the request never gets through while held. */
  recorded: boolean;
}

/** A send `FakePlatform.hang` held, once its hold ended. */
export interface HungSend {
  idempotencyKey: string | undefined;
  recorded: boolean;
  /** The sender closed the connection before the hold ended (it timed out). */
  senderGaveUp: boolean;
}

/**
 * The sample platform's send API on a real loopback port: records every `POST /messages` and
 * answers with a message id, or with the status a test asks for. Like the platform it stands for,
 * it drops a send whose Idempotency-Key it has answered before: `received` still lists every
 * arrival (so a test sees a repeat), `delivered()` what a user would see.
 */
export class FakePlatform {
  readonly received: ReceivedMessage[] = [];
  /** Statuses (with headers, such as Retry-After) to answer the next sends with, in order; then 200. */
  readonly failNext: (number | { status: number; headers: Record<string, string> })[] = [];
  /** When each refused send arrived (ms since the epoch), in order. */
  readonly refusedAt: number[] = [];
  /** How long each answer is held after the message is recorded: a slow platform keeps sends in flight. */
  respondAfterMs = 0;
  /**
   * Asked for each send that is not refused, with how often its Idempotency-Key arrived before
   * (refused arrivals not counted): a Hang holds it, as a platform under load does, past the
   * sender's time limit. A send held unrecorded is recorded (and answered) only if its sender is
   * still waiting when the hold ends; a recorded one is answered then, if its sender still is.
   */
  hang: ((send: { idempotencyKey: string | undefined; earlierArrivals: number }) => Hang | undefined) | undefined;
  /** The sends `hang` held, in the order their holds ended. */
  readonly hung: HungSend[] = [];
  readonly #arrivalsByKey = new Map<string, number>();
  #waiters: Array<() => void> = [];
  readonly #midByKey = new Map<string, string>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakePlatform> {
    const server = createServer();
    const platform = new FakePlatform(server);
    // A sender killed mid-request resets its socket: the message is simply not recorded.
    server.on('request', (request, response) => void platform.handle(request, response).catch(() => response.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return platform;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} messages at the platform, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.received;
  }

  /** The messages a user would see: the first arrival of each Idempotency-Key, in order. */
  delivered(): ReceivedMessage[] {
    const seen = new Set<string>();
    return this.received.filter((message) => {
      const key = message.idempotencyKey;
      if (key === undefined) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Holds the send `hang.ms` or until its sender closes the connection; true when the sender gave up. */
  async #hold(response: import('node:http').ServerResponse, idempotencyKey: string | undefined, hang: Hang): Promise<boolean> {
    const senderGaveUp = await new Promise<boolean>((resolve) => {
      if (response.socket === null || response.socket.destroyed) return resolve(true);
      const timer = setTimeout(() => resolve(false), hang.ms);
      response.once('close', () => (clearTimeout(timer), resolve(true)));
    });
    this.hung.push({ idempotencyKey, recorded: hang.recorded, senderGaveUp });
    return senderGaveUp;
  }

  private async handle(request: IncomingMessage, response: import('node:http').ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const failure = this.failNext.shift();
    if (failure !== undefined) {
      const { status, headers } = typeof failure === 'number' ? { status: failure, headers: {} } : failure;
      this.refusedAt.push(Date.now());
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{"error":"try later"}');
      return;
    }
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    const earlierArrivals = idempotencyKey === undefined ? 0 : (this.#arrivalsByKey.get(idempotencyKey) ?? 0);
    if (idempotencyKey !== undefined) this.#arrivalsByKey.set(idempotencyKey, earlierArrivals + 1);
    const hang = this.hang?.({ idempotencyKey, earlierArrivals });
    if (hang && !hang.recorded && (await this.#hold(response, idempotencyKey, hang))) return;
    this.received.push({ authorization: request.headers.authorization, idempotencyKey, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    const mid = (idempotencyKey === undefined ? undefined : this.#midByKey.get(idempotencyKey)) ?? `mid-${this.received.length}`;
    if (idempotencyKey !== undefined) this.#midByKey.set(idempotencyKey, mid);
    for (const wake of this.#waiters.splice(0)) wake();
    if (this.respondAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, this.respondAfterMs));
    if (hang?.recorded && (await this.#hold(response, idempotencyKey, hang))) return;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: mid }));
  }
}
