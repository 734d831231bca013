import { OutgoingMessageType } from '@bot-ai/types';
import type { PlainInboundEvent } from '../events/channel-inbound-event.ts';
import { CANONICAL_ENVELOPES } from './canonical-envelopes.ts';
import { codeOf, describeError, fail, inCauseChain } from './check-failure.ts';
import type { Check, CheckContext } from './check-types.ts';

/** One send per declared type, a refusal per undeclared one, typing, the platform's 429 and a 503. */
export async function checkSends(context: CheckContext, capabilities: Record<string, unknown>, event: PlainInboundEvent, check: Check): Promise<void> {
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
    if (wait !== rateLimited.retryAfterMs) fail(`retryAfterMs is ${String(wait)} (${describeError(error)})`);
  });
  await check('a platform outage (HTTP 503) fails the send with the status', async () => {
    platform.answerNext({ status: 503, headers: {}, body: { error: 'unavailable' } });
    const code = await channel.send(event, source, CANONICAL_ENVELOPES.text, options()).then(() => 'sent', codeOf);
    if (code !== 'BOT_ERR_CHANNEL_PLATFORM_STATUS') fail(`${code}, expected PlatformResponseError`);
  });
}
