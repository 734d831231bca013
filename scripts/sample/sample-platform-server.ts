import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A reply body larger than this is not a sample channel's message: refused, not buffered. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface SamplePlatformOptions {
  /** When set, a send without `Authorization: Bearer <apiKey>` is refused with 401, as the platform would. */
  apiKey?: string;
  /** Receives one readable line per reply received (or refused). */
  print: (line: string) => void;
}

interface SampleSend {
  recipient?: { id?: unknown };
  message?: { text?: unknown; quick_replies?: { title?: unknown }[] };
}

/**
 * A stand-in for the sample platform's send API: `POST …/messages` with a JSON body
 * `{ recipient: { id }, message: { text, quick_replies? } }` answers `{ "id": "<message id>" }`
 * and prints `reply to <recipient>: <text>`. Any path prefix is accepted, so a source whose
 * `api_url` has one (`…/api`) still lands here.
 * @example createSamplePlatformServer({ print: console.log }).listen(4100, '127.0.0.1');
 */
export function createSamplePlatformServer(options: SamplePlatformOptions): Server {
  return createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => answer(res, 500, { error: String(error) }));
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, { apiKey, print }: SamplePlatformOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://platform').pathname;
  if (req.method !== 'POST' || !path.endsWith('/messages')) return answer(res, 404, { error: 'only POST …/messages is served here' });
  if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) {
    print(`refused a reply: the Authorization header is not "Bearer <the --api-key given>" (HTTP 401)`);
    return answer(res, 401, { error: 'invalid api key' });
  }
  const body = await readJson(req);
  if (!body) return answer(res, 400, { error: 'the body is not JSON of at most 1 MiB' });
  print(describeSend(body as SampleSend));
  answer(res, 200, { id: `mid-${randomUUID()}` });
}

/** `reply to user-1: Hello Ada!`, with the quick replies' titles when there are some. */
export function describeSend({ recipient, message }: SampleSend): string {
  const options = (message?.quick_replies ?? []).map((reply) => String(reply.title));
  const choices = options.length > 0 ? ` [quick replies: ${options.join(' | ')}]` : '';
  return `reply to ${String(recipient?.id)}: ${String(message?.text)}${choices}`;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
