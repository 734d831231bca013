import type { PlainInboundEvent } from '../events/channel-inbound-event.ts';
import type { DeliveryFixture } from './check-manifest.schema.ts';
import type { WebhookOutcome } from './channel-under-test.ts';
import { deepEqual, expectStatus, fail } from './check-failure.ts';
import type { Check, CheckContext } from './check-types.ts';
import { fixtureToRequest, forgeries, signRequest } from './sign-delivery.ts';

/** Every delivery; answers the first event of `replyTo`, for the sends. */
export async function checkDeliveries(context: CheckContext, check: Check): Promise<PlainInboundEvent | undefined> {
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
