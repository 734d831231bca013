/**
 * Hostile input on the public webhook route (issue 6, item 3): random bytes, random JSON, deep
 * nesting, bodies at and over the size limit, invalid UTF-8 and odd content types, signed (so
 * the sample channel's decoder really sees them) and unsigned. Properties: never a 5xx (the
 * sample channel is registered, so not even a 503), the app keeps answering, every request
 * answers within REQUEST_BOUND_MS, and a 200 only when the decoded events are in inbound_events.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { inject } from 'light-my-request';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A call that outlives this is the sandbox's own timeout (503), which these tests would report. */
const SANDBOX = { callTimeoutMs: 3_000, maxHeapMb: 96, maxThreads: 2, maxQueue: 100, idleTimeoutMs: 10_000 };
/**
 * Each request must answer within this: the sandbox call timeout (3 s) is the longest any step may
 * legitimately take, the rest (read 1 MiB, one INSERT) takes milliseconds; 5 s leaves room for a
 * loaded 2-core machine without letting a hang pass.
 */
const REQUEST_BOUND_MS = 5_000;
const LIMIT_BYTES = 1024 * 1024; // BOT_WEBHOOK_MAX_BODY_BYTES default, which createTestApp keeps
const SECRET = 'hostile-webhook-secret';
const VERIFY_TOKEN = 'hostile-verify-token';

let t: TestApp;
let source: { id: string; ref: string };
before(async () => {
  t = await createTestApp({ channels: { appRoot: REPO_ROOT, sandbox: SANDBOX } });
  await t.services.channels.load();
  const created = await t.request('POST', '/api/sources', {
    as: 'admin',
    body: { name: 'Hostile platform', channel: 'sample', settings: { webhook_secret: SECRET, verify_token: VERIFY_TOKEN } },
  });
  assert.equal(created.status, 201, created.text);
  source = created.body;
});
after(() => t.close());

const sign = (raw: Uint8Array) => createHmac('sha256', SECRET).update(raw).digest('hex');

interface Delivery {
  body: Uint8Array;
  signed: boolean;
  contentType: string | undefined;
}

/** Posts one body and checks the properties every webhook answer must have. */
async function deliver({ body, signed, contentType }: Delivery): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (signed) headers['x-bot-signature'] = sign(body);
  const started = performance.now();
  // The exact bytes, and no content type unless asked: t.request would add both.
  const injected = await inject(t.app.callback(), { method: 'POST', url: `/api/webhook/${source.ref}`, headers, payload: Buffer.from(body) });
  const elapsed = performance.now() - started;
  const response: TestResponse = { status: injected.statusCode, headers: injected.headers, text: injected.payload, body: parseJson(injected.payload) };
  assert.ok(elapsed < REQUEST_BOUND_MS, `answered after ${Math.round(elapsed)} ms`);
  assert.ok(response.status < 500, `status ${response.status}: ${response.text.slice(0, 300)}`);
  if (response.status !== 200) {
    assert.match(response.body?.error?.code ?? '', /^BOT_ERR_[A-Z_]+$/, response.text.slice(0, 300));
  }
  if (!signed) assert.equal(response.status === 200, false, 'an unsigned body was accepted');
  if (body.byteLength > LIMIT_BYTES) assert.equal(response.status, 413);
  return response;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely, as in TestResponse
function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Event ids are prefixed with a fresh nonce per delivery, so the rows a delivery added can be counted exactly. */
async function rowsWithPrefix(prefix: string): Promise<string[]> {
  const rows: { event_id: string }[] = await t.database.db('inbound_events').where({ source_id: source.id }).whereLike('event_id', `${prefix}%`).select('event_id');
  return rows.map((row) => row.event_id);
}

/** A normal signed webhook still answers 200 and is committed: the app survived what came before. */
async function assertStillServing(): Promise<void> {
  const id = `alive-${randomUUID()}`;
  const raw = Buffer.from(JSON.stringify({ events: [{ id, sender: { id: 'user-1' }, message: { text: 'still there?' } }] }));
  const response = await deliver({ body: raw, signed: true, contentType: 'application/json' });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(await rowsWithPrefix(id), [id]);
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const contentTypes = fc.option(
  fc.oneof(
    fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''),
    fc.string({ maxLength: 40 }).filter((text) => /^[\t\x20-\x7e]*$/.test(text)),
  ),
  { nil: undefined },
);
/** Characters that break things: NUL, lone surrogates, LIKE wildcards, quotes, emoji, controls. */
const nastyChar = fc.constantFrom('\u0000', '\uD800', '\uDFFF', '%', '_', '\\', "'", '"', '😀', '\u202E', '\n', 'a', 'é');
const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: nastyChar, maxLength: 8 }),
  fc.constantFrom('', '\u0000', '\uD800', 'x\uDC00y', '__proto__', 'constructor', '😀'.repeat(5)),
);
/** Anything JSON can say, including the hostile strings as keys and values. */
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const nonEmpty = hostileString.filter((text) => text.length > 0);
/** Sample-platform events in the right shape, with hostile text in every field. */
const plausibleEvent = fc.record(
  {
    id: nonEmpty,
    timestamp: fc.oneof(fc.integer(), fc.double(), fc.constant(8.64e15 + 1), anyJson),
    tenant_id: hostileString,
    sender: fc.record({ id: nonEmpty, first_name: hostileString, last_name: hostileString }, { requiredKeys: ['id'] }),
    recipient: fc.record({ id: nonEmpty }),
    message: fc.record({ text: hostileString, payload: hostileString }, { requiredKeys: [] }),
    extra: anyJson,
  },
  { requiredKeys: ['id'] },
);
/** Sample-platform events whose fields are sometimes right and often not. */
const sampleishEvent = fc.record(
  {
    id: fc.oneof(hostileString, anyJson),
    timestamp: fc.oneof(fc.integer(), fc.double(), anyJson),
    sender: fc.oneof(fc.record({ id: hostileString }, { requiredKeys: [] }), anyJson),
    message: fc.oneof(fc.record({ text: fc.oneof(hostileString, anyJson), payload: fc.oneof(hostileString, anyJson) }, { requiredKeys: [] }), anyJson),
  },
  { requiredKeys: ['id', 'message'] },
);
const batch = fc.array(fc.oneof({ arbitrary: plausibleEvent, weight: 8 }, { arbitrary: sampleishEvent, weight: 1 }, { arbitrary: anyJson, weight: 1 }), { maxLength: 4 });

/** Gives each string id a nonce prefix so the rows of one delivery can be found. */
function withNonce(events: unknown[], nonce: string): unknown[] {
  return events.map((event) =>
    event && typeof event === 'object' && typeof (event as { id?: unknown }).id === 'string'
      ? { ...event, id: `${nonce}${(event as { id: string }).id}` }
      : event,
  );
}

describe('POST /api/webhook/:sourceRef under hostile input', () => {
  test('random bytes, signed or not, with any content type: a 4xx with a code, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), fc.boolean(), contentTypes, async (body, signed, contentType) => {
        const response = await deliver({ body, signed, contentType });
        assert.ok([200, 400, 401].includes(response.status), `status ${response.status}`);
      }),
      { numRuns: 100 },
    );
    await assertStillServing();
  });

  test('random JSON (fc.json and fc.anything serialised): 200 only for a body in the platform format', async () => {
    const text = fc.oneof(fc.json({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'undefined'));
    await fc.assert(
      fc.asyncProperty(text, fc.boolean(), contentTypes, async (raw, signed, contentType) => {
        const response = await deliver({ body: utf8(raw), signed, contentType });
        if (response.status === 200) assert.ok(Array.isArray((JSON.parse(raw) as { events?: unknown } | null)?.events), raw);
      }),
      { numRuns: 100 },
    );
    await assertStillServing();
  });

  test('sample-like batches with hostile fields: a 200 means exactly the decoded events were committed', async (context) => {
    let committed = 0;
    await fc.assert(
      fc.asyncProperty(batch, fc.boolean(), async (events, signed) => {
        const nonce = `n${randomUUID()}-`;
        const raw = utf8(JSON.stringify({ events: withNonce(events, nonce) }));
        const response = await deliver({ body: raw, signed, contentType: 'application/json' });
        const stored = await rowsWithPrefix(nonce);
        if (response.status !== 200) {
          assert.deepEqual(stored, [], 'a refused delivery stored events');
          return;
        }
        const ids = events.length === 0 ? [] : withNonce(events, nonce).map((event) => (event as { id?: unknown }).id);
        assert.ok(stored.length <= response.body.received, `${stored.length} rows for ${response.body.received} events`);
        assert.equal(stored.length > 0, response.body.received > 0, 'decoded events were not committed');
        if (stored.length > 0) committed += 1;
        for (const id of stored) assert.ok(ids.some((sent) => typeof sent === 'string' && id === sent.replaceAll('\u0000', '\uFFFD').toWellFormed()), id);
      }),
      { numRuns: 100 },
    );
    context.diagnostic(`${committed} of 100 deliveries committed events`);
    await assertStillServing();
  });

  test('arrays and objects nested up to 12k deep, at the top or inside an event: a 400 or a committed 200', async () => {
    const nesting = fc.record({ depth: fc.oneof(fc.integer({ min: 1, max: 130 }), fc.integer({ min: 1_000, max: 12_000 })), kind: fc.constantFrom('array', 'object'), where: fc.constantFrom('top', 'events', 'message', 'extra') });
    await fc.assert(
      fc.asyncProperty(nesting, async ({ depth, kind, where }) => {
        const deep = kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        const id = `deep-${randomUUID()}`;
        const raw = {
          top: deep,
          events: `{"events":${deep}}`,
          message: `{"events":[{"id":"${id}","sender":{"id":"u"},"message":${deep}}]}`,
          extra: `{"events":[{"id":"${id}","sender":{"id":"u"},"message":{"text":"hi"},"extra":${deep}}]}`,
        }[where];
        const response = await deliver({ body: utf8(raw), signed: true, contentType: 'application/json' });
        assert.ok([200, 400].includes(response.status), `status ${response.status}`);
        const stored = await rowsWithPrefix(id);
        assert.deepEqual(stored, response.status === 200 && response.body.received > 0 ? [id] : []);
      }),
      { numRuns: 30 },
    );
    await assertStillServing();
  });

  test('bodies near and over the size limit: 413 past it, never read whole, never a 5xx', async () => {
    const size = fc.oneof(fc.integer({ min: LIMIT_BYTES - 256, max: LIMIT_BYTES + 256 }), fc.integer({ min: LIMIT_BYTES + 1, max: 3 * LIMIT_BYTES }));
    await fc.assert(
      fc.asyncProperty(size, fc.boolean(), fc.boolean(), async (bytes, signed, asEvent) => {
        const id = `big-${randomUUID()}`;
        const frame = asEvent ? `{"events":[{"id":"${id}","sender":{"id":"u"},"message":{"text":"` : '{"padding":"';
        const close = asEvent ? '"}}]}' : '"}';
        const raw = `${frame}${'x'.repeat(Math.max(0, bytes - frame.length - close.length))}${close}`;
        const response = await deliver({ body: utf8(raw), signed, contentType: 'application/json' });
        if (response.status === 200) assert.deepEqual(await rowsWithPrefix(id), asEvent ? [id] : []);
      }),
      { numRuns: 12 },
    );
    await assertStillServing();
  });

  test('invalid UTF-8 inside a signed message: decoded with U+FFFD and committed, or refused with a 4xx', async () => {
    const badBytes = fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => bytes.map((byte) => (byte | 0x80) & 0xff));
    await fc.assert(
      fc.asyncProperty(badBytes, fc.constantFrom('text', 'id', 'key'), async (bytes, where) => {
        const id = `utf8-${randomUUID()}`;
        const [before, after] = {
          text: [`{"events":[{"id":"${id}","sender":{"id":"u"},"message":{"text":"a`, `b"}}]}`],
          id: [`{"events":[{"id":"${id}`, `","sender":{"id":"u"},"message":{"text":"hi"}}]}`],
          key: [`{"events":[{"id":"${id}","sender":{"id":"u"},"message":{"text":"hi"},"`, `":1}]}`],
        }[where] as [string, string];
        const raw = Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
        const response = await deliver({ body: raw, signed: true, contentType: 'application/json' });
        assert.equal(response.status, 200, response.text);
        assert.equal((await rowsWithPrefix(id)).length, 1);
      }),
      { numRuns: 30 },
    );
    await assertStillServing();
  });
});

describe('webhook URLs with hostile path segments', () => {
  const segment = fc.oneof(
    fc.constantFrom(() => source.ref).map((ref) => ref()),
    hostileString.map((text) => encodeURIComponent(text.toWellFormed())),
    fc.constantFrom('%00', 'a%00b', '%zz', '%', '..', '%2F', 'x'.repeat(5_000), '00000000-0000-0000-0000-000000000000', 'download'),
  );
  test('random source refs and workflow ids: a coded 404 (or the answer for the real source), never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST' as const), segment, fc.option(segment, { nil: undefined }), async (method, ref, workflowId) => {
        const url = `/api/webhook/${ref}${workflowId === undefined ? '' : `/${workflowId}`}`;
        const started = performance.now();
        const response = await t.request(method, url, method === 'POST' ? { body: '{"events":[]}' } : {});
        assert.ok(performance.now() - started < REQUEST_BOUND_MS);
        assert.ok(response.status < 500, `${method} ${url.slice(0, 200)}: ${response.status} ${response.text}`);
        // The real source's GET answers what the channel writes (a plain 403 without the token).
        if (response.status >= 400 && ref !== source.ref) assert.match(response.body?.error?.code ?? '', /^BOT_ERR_[A-Z_]+$/, response.text);
      }),
      { numRuns: 100 },
    );
    await assertStillServing();
  });
});

describe('GET /api/webhook/:sourceRef under hostile query strings', () => {
  const queryPart = fc.oneof(
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.string({ unit: 'binary', maxLength: 20 }).map((text) => encodeURIComponent(text.toWellFormed())),
    fc.constantFrom('%', '%zz', '%C0%80', '%ED%A0%80', '%00', '__proto__', 'verify_token', 'challenge', `verify_token=${VERIFY_TOKEN}`, '[]', 'a[b]=c', '&&&', '=='),
  );
  test('answers 200 only to the right verify_token, else 403, and never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(queryPart, fc.option(queryPart)), { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([name, value]) => (value === null ? name : `${name}=${value}`)).join('&');
        const started = performance.now();
        const response = await t.request('GET', `/api/webhook/${source.ref}?${query}`);
        assert.ok(performance.now() - started < REQUEST_BOUND_MS);
        assert.ok([200, 403].includes(response.status), `status ${response.status} for ?${query}: ${response.text}`);
        const tokens = new URLSearchParams(query).getAll('verify_token');
        if (response.status === 200) assert.equal(tokens[0], VERIFY_TOKEN, `?${query}`);
      }),
      { numRuns: 100 },
    );
    await assertStillServing();
  });
});
