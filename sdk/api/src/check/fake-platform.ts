import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlatformAnswer, PlatformRoute } from './check-manifest.schema.ts';

/** One request the fake platform received. */
export interface RecordedRequest {
  method: string;
  /** The URL path, without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/**
 * A stand-in for a platform's API on 127.0.0.1: answers each request with the first route whose
 * method and path (a regular expression) match, 404 otherwise, and records every request.
 * `answerNext` makes the next request get a given answer (a 429, a 503) whatever its route;
 * `failEverything` answers every request with one status until cleared.
 * @example
 * const platform = await FakePlatform.start([{ method: 'POST', path: '/sendMessage$', status: 200, headers: {}, body: { ok: true } }]);
 * // settings.api_base_url = platform.url
 * await platform.close();
 */
export class FakePlatform {
  readonly requests: RecordedRequest[] = [];
  readonly #routes: { method: string; path: RegExp; answer: PlatformAnswer }[];
  readonly #server: Server;
  readonly #next: PlatformAnswer[] = [];
  #failStatus: number | undefined;

  private constructor(routes: PlatformRoute[], server: Server) {
    this.#routes = routes.map(({ method, path, ...answer }) => ({ method: method.toUpperCase(), path: new RegExp(path), answer }));
    this.#server = server;
  }

  /** Listens on 127.0.0.1 on a free port. */
  static async start(routes: PlatformRoute[]): Promise<FakePlatform> {
    const server = createServer();
    const platform = new FakePlatform(routes, server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void platform.#handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return platform;
  }

  /** `http://127.0.0.1:<port>`: what a channel's API base URL setting points at. */
  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The next request gets `answer`, whatever it asks. */
  answerNext(answer: PlatformAnswer): void {
    this.#next.push(answer);
  }

  /** Every request gets `status` (an outage) until called with undefined. */
  failEverything(status: number | undefined): void {
    this.#failStatus = status;
  }

  /** Forgets the recorded requests. */
  clear(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://platform.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    this.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])),
      body,
      json: parseJson(body),
    });
    this.#write(res, this.#answerFor(method, url.pathname));
  }

  #answerFor(method: string, path: string): PlatformAnswer {
    const queued = this.#next.shift();
    if (queued) return queued;
    if (this.#failStatus !== undefined) return { status: this.#failStatus, headers: {}, body: { error: 'outage' } };
    const route = this.#routes.find((candidate) => candidate.method === method && candidate.path.test(path));
    return route?.answer ?? { status: 404, headers: {}, body: { error: `no fake route for ${method} ${path}` } };
  }

  #write(res: ServerResponse, answer: PlatformAnswer): void {
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers });
    res.end(text);
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
