import type { PlainInboundEvent } from '../events/channel-inbound-event.ts';
import { deepEqual, fail } from './check-failure.ts';
import type { Check, CheckContext } from './check-types.ts';

/** The new subscriber with the profile API answering (the fixtures' fields), then failing (a fallback). */
export async function checkSubscriber(context: CheckContext, event: PlainInboundEvent, check: Check): Promise<void> {
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
