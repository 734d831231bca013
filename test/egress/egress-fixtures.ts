/** Shared by the egress tests: a loopback listener, a client with small limits, a coded-rejection check (the sandbox tests' own). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import type { PlainInboundEvent } from '@bot-ai/api';
import { EgressClient, type EgressClientOptions } from '../../host/egress/egress-client.ts';
import type { EgressLimits } from '../../host/egress/egress-limits.ts';

/** A message event of the `egress_probe` fixture channel, for the sends its tests make. */
export const PROBE_EVENT: PlainInboundEvent = {
  kind: 'message',
  channelName: 'egress_probe',
  rawEvent: {},
  channelAttributes: {},
  occurredAt: '2026-03-04T05:06:07.000Z',
  eventId: 'evt-1',
  senderForeignId: 'user-1',
  message: { type: 'text', data: { text: 'hi' } },
};

export const TEST_LIMITS: EgressLimits = { timeoutMs: 2_000, maxRequestBytes: 1_024, maxResponseBytes: 4_096, maxRedirects: 3 };

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Listener {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedRequest[];
}

/** A real HTTP listener on 127.0.0.1, closed (with its sockets) after the test. */
export async function startListener(t: TestContext, answer: (request: ReceivedRequest, res: ServerResponse) => void): Promise<Listener> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  t.after(() => server.closeAllConnections());
  const { port } = server.address() as AddressInfo;
  return { port, origin: `http://127.0.0.1:${port}`, received };
}

/** Answers 200 with a JSON echo of what was received. */
export function echo(request: ReceivedRequest, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, url: request.url, body: request.body }));
}

/** Resolves the given names to the given addresses; any other name is unknown. */
export function resolverFor(names: Record<string, string[]>): NonNullable<EgressClientOptions['resolve']> {
  return async (hostname) => {
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** A client closed after the test. */
export function startClient(t: TestContext, options: Partial<EgressClientOptions> = {}): EgressClient {
  const client = new EgressClient({ limits: TEST_LIMITS, ...options });
  t.after(() => client.close());
  return client;
}

export { rejectsWithCode } from '../channels/builtin-pool/fixture-pool.ts';

export function text(body: Uint8Array): string {
  return new TextDecoder().decode(body);
}
