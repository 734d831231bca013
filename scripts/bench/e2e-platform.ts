import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nameInReply, sharedNow } from './e2e-plan.ts';

/**
 * The sample platform's send API for the e2e benchmark, on a loopback port: answers every
 * `POST /messages` at once with a message id and records when each greeting reply arrived (on
 * the clock the load process shares), by the name it greets. A send key seen twice is counted
 * as a duplicate: the benchmark checks exactly-once delivery while it measures.
 */
export class BenchPlatform {
  /** Arrival time of each reply, by the name in "Hello <name>!". */
  readonly arrivals = new Map<string, number>();
  duplicates = 0;
  /** Names greeted under more than one send key: the same message answered twice, as a user sees it. */
  readonly answeredTwice = new Set<string>();
  readonly #keys = new Set<string>();
  readonly #keyByName = new Map<string, string>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<BenchPlatform> {
    const server = createServer({ keepAliveTimeout: 60_000 });
    const platform = new BenchPlatform(server);
    server.on('request', (request, response) => void platform.#handle(request, response).catch(() => response.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return platform;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrivedAt = sharedNow();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const key = String(request.headers['idempotency-key']);
    if (this.#keys.has(key)) this.duplicates += 1;
    this.#keys.add(key);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: { text?: string } };
    const name = nameInReply(body.message?.text ?? '');
    if (name !== undefined) {
      if (!this.arrivals.has(name)) this.arrivals.set(name, arrivedAt);
      if ((this.#keyByName.get(name) ?? key) !== key) this.answeredTwice.add(name);
      this.#keyByName.set(name, key);
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `mid-${this.#keys.size}` }));
  }
}
