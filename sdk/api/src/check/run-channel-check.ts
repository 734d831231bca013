import { channelCapabilitiesSchema, OutgoingMessageType } from '@bot-ai/types';
import type { PlainInboundEvent } from '../events/channel-inbound-event.ts';
import type { ChannelSource } from '../source.ts';
import type { WebhookRequest } from '../webhook/webhook-request.ts';
import { CANONICAL_ENVELOPES } from './canonical-envelopes.ts';
import type { CheckManifest, DeliveryFixture } from './check-manifest.schema.ts';
import type { ChannelUnderTest, WebhookOutcome } from './channel-under-test.ts';
import type { FakePlatform } from './fake-platform.ts';
import type { ChannelFixtures } from './load-fixtures.ts';
import { fixtureToRequest, forgeries, signRequest } from './sign-delivery.ts';

/** One line of the report. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface CheckReport {
  channel: string;
  results: CheckResult[];
  ok: boolean;
}

export interface CheckContext {
  channel: ChannelUnderTest;
  fixtures: ChannelFixtures;
  /** The fake platform the source's settings point at (see {@link checkSource}). */
  platform: FakePlatform;
  source: ChannelSource;
  /** The clock timestamped signatures are made with; default: now. */
  now?: () => Date;
}

/** Raised inside a check to fail it with a reason. */
class CheckFailure extends Error {}

/**
 * The source the checks run on: the manifest's settings, `{{platform}}` replaced by the fake
 * platform's URL.
 * @example const source = checkSource(fixtures.manifest, platform.url);
 */
export function checkSource(manifest: CheckManifest, platformUrl: string): ChannelSource {
  const settings = JSON.parse(JSON.stringify(manifest.settings).replaceAll('{{platform}}', platformUrl)) as Record<string, unknown>;
  return { id: 'channel-check-source', ref: 'channel-check', settings, active: true };
}

/**
 * Runs a channel through the contract with its recorded deliveries: its description and
 * settings, the handshake, every delivery decoded as expected, signatures refused when forged,
 * retries decoding to the same ids, a send of each declared type (and a refusal of the others),
 * the platform's rate limit and an outage on send, and the subscriber's data with and without
 * the profile API. Never throws for a failing channel: each check is a line of the report.
 * @example const report = await runChannelCheck({ channel, fixtures, platform, source });
 */
export async function runChannelCheck(context: CheckContext): Promise<CheckReport> {
  const results: CheckResult[] = [];
  const check = async (name: string, run: () => Promise<string | void>): Promise<boolean> => {
    try {
      const detail = await run();
      results.push({ name, ok: true, ...(detail ? { detail } : {}) });
      return true;
    } catch (error) {
      results.push({ name, ok: false, detail: error instanceof CheckFailure ? error.message : describe(error) });
      return false;
    }
  };
  const described = await context.channel.describe().catch((error: unknown) => {
    results.push({ name: 'the channel describes itself', ok: false, detail: describe(error) });
    return undefined;
  });
  if (!described) return report('(unknown)', results);
  await check('the channel describes itself', async () => describeChecks(described, context.fixtures.manifest));
  await checkHandshake(context, check);
  const replyTo = await checkDeliveries(context, check);
  if (replyTo) {
    await checkSends(context, described.capabilities, replyTo, check);
    await checkSubscriber(context, replyTo, check);
  } else {
    results.push({ name: 'sends and subscriber data', ok: false, detail: `the replyTo delivery "${context.fixtures.manifest.replyTo}" produced no event to answer` });
  }
  return report(described.name, results);
}

type Check = (name: string, run: () => Promise<string | void>) => Promise<boolean>;

function describeChecks(described: Awaited<ReturnType<ChannelUnderTest['describe']>>, manifest: CheckManifest): string {
  const capabilities = channelCapabilitiesSchema.safeParse(described.capabilities);
  if (!capabilities.success) fail(`its capabilities are not valid: ${capabilities.error.message}`);
  const properties = (described.settingsJsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const key of Object.keys(manifest.settings)) if (!(key in properties)) fail(`the fixtures set "${key}", which its settings schema does not have`);
  const secret = properties[manifest.signature.setting];
  if (!secret) fail(`its settings have no "${manifest.signature.setting}", the signature's secret`);
  if (secret['ui:widget'] !== 'password') fail(`the secret setting "${manifest.signature.setting}" is not a password field ('ui:widget': 'password')`);
  if (!Object.values(properties).some((property) => property['x-egress'] === true)) fail('no setting is marked x-egress: the API base URL must be one, for proxies and fake platforms');
  return `"${described.name}", settings ${Object.keys(properties).join(', ')}`;
}

async function checkHandshake(context: CheckContext, check: Check): Promise<void> {
  const handshake = context.fixtures.manifest.handshake;
  if (!handshake) return;
  const get = (query: Record<string, string>): WebhookRequest => ({ method: 'GET', headers: {}, query, params: {}, body: undefined, rawBody: Buffer.alloc(0) });
  await check('the handshake answers the platform', async () => {
    const answer = await context.channel.verifyWebhook(get(handshake.accept.query), context.source);
    expectStatus(answer.statusCode ?? 200, handshake.accept.expect.status);
    const includes = handshake.accept.expect.bodyIncludes;
    if (includes !== undefined && !(answer.body ?? '').includes(includes)) fail(`the answer ${JSON.stringify(answer.body)} does not hold "${includes}"`);
  });
  await check('the handshake refuses a wrong token', async () => {
    const answer = await context.channel.verifyWebhook(get(handshake.refuse.query), context.source);
    expectStatus(answer.statusCode ?? 200, handshake.refuse.expect.status);
  });
}

/** Every delivery; answers the first event of `replyTo`, for the sends. */
async function checkDeliveries(context: CheckContext, check: Check): Promise<PlainInboundEvent | undefined> {
  const { manifest, deliveries } = context.fixtures;
  const secret = String(context.source.settings[manifest.signature.setting] ?? '');
  const nowSeconds = () => (context.now?.() ?? new Date()).getTime() / 1000;
  const decoded = new Map<string, PlainInboundEvent[]>();
  for (const [file, delivery] of deliveries) {
    const request = delivery.signed ? signRequest(fixtureToRequest(delivery.request), manifest.signature, secret, nowSeconds()) : fixtureToRequest(delivery.request);
    await check(`${file}: ${delivery.description}`, async () => {
      const outcome = await context.channel.receiveWebhook(request, context.source);
      const events = expectOutcome(outcome, delivery);
      if (events) decoded.set(file, events);
      return events ? `${events.length} event${events.length === 1 ? '' : 's'}` : undefined;
    });
    if (delivery.signed && delivery.expect.status === 200) {
      for (const forgery of forgeries(fixtureToRequest(delivery.request), manifest.signature, secret, nowSeconds())) {
        await check(`${file}: refused with ${forgery.name}`, async () => {
          const outcome = await context.channel.receiveWebhook(forgery.request, context.source);
          if (outcome.outcome !== 'rejected') fail(`not refused (${outcome.outcome === 'accepted' ? 'accepted' : 'answered 400'}): the signature is not checked`);
        });
      }
    }
  }
  for (const [file, delivery] of deliveries) {
    const original = delivery.sameEventsAs;
    if (original === undefined) continue;
    await check(`${file}: a retry of ${original} is the same events`, async () => {
      const ids = (name: string) => (decoded.get(name) ?? []).map((event) => event.eventId).join(', ');
      if (!decoded.has(original)) fail(`${original} is not a delivery that decoded`);
      if (ids(file) !== ids(original) || ids(file) === '') fail(`event ids [${ids(file)}] differ from [${ids(original)}]`);
    });
  }
  return decoded.get(manifest.replyTo)?.[0];
}

function expectOutcome(outcome: WebhookOutcome, delivery: DeliveryFixture): PlainInboundEvent[] | undefined {
  const status = outcome.outcome === 'accepted' ? (outcome.response.statusCode ?? 200) : outcome.status;
  expectStatus(status, delivery.expect.status);
  if (outcome.outcome !== 'accepted') return undefined;
  const includes = delivery.expect.responseBodyIncludes;
  if (includes !== undefined && !(outcome.response.body ?? '').includes(includes)) fail(`the answer ${JSON.stringify(outcome.response.body)} does not hold "${includes}"`);
  const expected = delivery.expect.events;
  if (expected) {
    if (outcome.events.length !== expected.length) {
      fail(`${outcome.events.length} events (${outcome.events.map((event) => event.eventId).join(', ') || 'none'}), expected ${expected.length}${expected.length === 0 ? ': this delivery is noise and must be dropped' : ''}`);
    }
    expected.forEach((want, index) => {
      const got = outcome.events[index] as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(want)) {
        if (!deepEqual(got[key], value)) fail(`event ${index} ${key}: got ${JSON.stringify(got[key])}, expected ${JSON.stringify(value)}`);
      }
    });
  }
  return outcome.events;
}

async function checkSends(context: CheckContext, capabilities: Record<string, unknown>, event: PlainInboundEvent, check: Check): Promise<void> {
  const { channel, source, platform } = context;
  let sent = 0;
  const options = () => ({ idempotencyKey: `channel-check-${sent++}` });
  for (const type of Object.values(OutgoingMessageType)) {
    const envelope = CANONICAL_ENVELOPES[type];
    if (capabilities[type] === true) {
      await check(`sends ${type}`, async () => {
        platform.clear();
        const { mid } = await channel.send(event, source, envelope, options());
        if (typeof mid !== 'string' || mid === '') fail('no message id');
        if (platform.requests.length === 0) fail('no request reached the platform');
        return `mid ${mid}, ${platform.requests.map((request) => `${request.method} ${request.path}`).join(', ')}`;
      });
    } else {
      await check(`refuses ${type}, which it does not declare`, async () => {
        const code = await channel.send(event, source, envelope, options()).then(() => 'sent', codeOf);
        if (code !== 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT') fail(`${code}, expected UnsupportedOutgoingFormatError`);
      });
    }
  }
  if (capabilities.typingIndicator === true && channel.typing) {
    await check('shows typing', async () => {
      platform.clear();
      await channel.typing!(event, source);
      if (platform.requests.length === 0) fail('no request reached the platform');
    });
  }
  const { rateLimited } = context.fixtures.manifest.platform;
  await check(`a rate-limited send (HTTP ${rateLimited.status}) asks to retry after ${rateLimited.retryAfterMs} ms`, async () => {
    platform.answerNext(rateLimited);
    const error = await channel.send(event, source, CANONICAL_ENVELOPES.text, options()).then(() => undefined, (reason: unknown) => reason);
    if (error === undefined) fail('the send succeeded');
    const wait = inCauseChain(error, 'retryAfterMs');
    if (wait !== rateLimited.retryAfterMs) fail(`retryAfterMs is ${String(wait)} (${describe(error)})`);
  });
  await check('a platform outage (HTTP 503) fails the send with the status', async () => {
    platform.answerNext({ status: 503, headers: {}, body: { error: 'unavailable' } });
    const code = await channel.send(event, source, CANONICAL_ENVELOPES.text, options()).then(() => 'sent', codeOf);
    if (code !== 'BOT_ERR_CHANNEL_PLATFORM_STATUS') fail(`${code}, expected PlatformResponseError`);
  });
}

async function checkSubscriber(context: CheckContext, event: PlainInboundEvent, check: Check): Promise<void> {
  const { channel, source, platform } = context;
  await check('subscriber data from the platform profile', async () => {
    const subscriber = (await channel.subscriberData(event, source)) as Record<string, unknown>;
    for (const [key, value] of Object.entries(context.fixtures.manifest.subscriber)) {
      if (!deepEqual(subscriber[key], value)) fail(`${key}: got ${JSON.stringify(subscriber[key])}, expected ${JSON.stringify(value)}`);
    }
    return `${String(subscriber.firstName)} ${String(subscriber.lastName)}`.trim();
  });
  await check('subscriber data falls back when the profile API fails', async () => {
    platform.failEverything(500);
    try {
      const subscriber = (await channel.subscriberData(event, source)) as Record<string, unknown>;
      if (subscriber.foreignId !== event.senderForeignId) fail(`foreignId ${JSON.stringify(subscriber.foreignId)} is not the sender`);
    } finally {
      platform.failEverything(undefined);
    }
  });
}

function expectStatus(got: number, expected: number): void {
  if (got !== expected) fail(`answered ${got}, expected ${expected}`);
}

function fail(message: string): never {
  throw new CheckFailure(message);
}

/**
 * The channel's own code: in a host's runner, the plugin's error arrives as the cause of the
 * host's `BOT_ERR_PLUGIN_THREW`, so the chain is searched for the first code that is not it.
 */
function codeOf(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'BOT_ERR_PLUGIN_THREW') return code;
  }
  return describe(error);
}

/** A field of the error or, once it crossed a runner, of one of its causes. */
function inCauseChain(error: unknown, key: string): unknown {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const value = (current as Record<string, unknown>)[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, inner]) => [key, sortKeys(inner)]));
  }
  return value;
}

function report(channel: string, results: CheckResult[]): CheckReport {
  return { channel, results, ok: results.every((result) => result.ok) };
}
