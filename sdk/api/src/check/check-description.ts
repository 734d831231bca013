import type { CheckManifest } from './check-manifest.schema.ts';
import { channelCapabilitiesSchema } from '@bot-ai/types';
import type { WebhookRequest } from '../webhook/webhook-request.ts';
import type { ChannelUnderTest } from './channel-under-test.ts';
import { expectStatus, fail } from './check-failure.ts';
import type { Check, CheckContext } from './check-types.ts';

/** The channel's description: valid capabilities, the fixtures' settings in its schema, its secret a password field, an x-egress endpoint. */
export function describeChecks(described: Awaited<ReturnType<ChannelUnderTest['describe']>>, manifest: CheckManifest): string {
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

/** The GET handshake, when the fixtures have one: accepted with the right token, refused with another. */
export async function checkHandshake(context: CheckContext, check: Check): Promise<void> {
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
