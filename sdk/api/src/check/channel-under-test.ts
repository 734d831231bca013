import { subscriberCreateDtoSchema, type ChannelCapabilities, type StdOutgoingMessageEnvelope } from '@bot-ai/types';
import { z } from 'zod';
import { applyExtensionInjections } from '../decorators/extension-inject.ts';
import type { PlainInboundEvent } from '../events/channel-inbound-event.ts';
import { rebuildInboundEvent } from '../events/rebuild-inbound-event.ts';
import type { HttpChannelHandler, SendMessageOptions, SendMessageResult } from '../handlers/http-channel-handler.ts';
import { runForSource } from '../services/host-services.ts';
import type { ChannelSource } from '../source.ts';
import type { WebhookRequest } from '../webhook/webhook-request.ts';
import { WebhookResponse, type PlainWebhookResponse } from '../webhook/webhook-response.ts';

/** What the host answers a POST with, as the check sees it. */
export type WebhookOutcome =
  | { outcome: 'accepted'; events: PlainInboundEvent[]; response: PlainWebhookResponse }
  | { outcome: 'rejected' | 'invalid'; status: number };

/**
 * A channel the author kit can run through its checks: the calls the host makes, on plain data.
 * The host's runner (a channel in its sandbox) fits it as it is; {@link inProcessChannel} makes one
 * of a handler instance.
 */
export interface ChannelUnderTest {
  describe(): Promise<{ name: string; capabilities: ChannelCapabilities; settingsJsonSchema: Record<string, unknown> }>;
  verifyWebhook(req: WebhookRequest, source: ChannelSource): Promise<PlainWebhookResponse>;
  receiveWebhook(req: WebhookRequest, source: ChannelSource): Promise<WebhookOutcome>;
  send(event: PlainInboundEvent, source: ChannelSource, envelope: StdOutgoingMessageEnvelope, options: SendMessageOptions): Promise<SendMessageResult>;
  subscriberData(event: PlainInboundEvent, source: ChannelSource): Promise<unknown>;
  /** Absent where the runtime has no typing call. */
  typing?(event: PlainInboundEvent, source: ChannelSource): Promise<void>;
}

/**
 * A handler run in this process, with the host's rules for what each call's outcome means: a
 * throw from `verifySignature` is a 401, a `PayloadRejectedError` or `ZodError` from `decode` a
 * 400. Install host services first (`installHostServices({ …, fetch: directFetchService })`) so
 * its `fetch` reaches the fake platform.
 * @example const channel = inProcessChannel(new TelegramChannel());
 */
export function inProcessChannel(handler: HttpChannelHandler): ChannelUnderTest {
  const channel = applyExtensionInjections(handler);
  const bound = (plain: PlainInboundEvent, source: ChannelSource) => rebuildInboundEvent(plain).bindSource(source);
  return {
    async describe() {
      const settingsJsonSchema = z.toJSONSchema(channel.settingsSchema, { io: 'input', target: 'draft-07' }) as Record<string, unknown>;
      return { name: channel.name, capabilities: channel.getCapabilities(), settingsJsonSchema };
    },
    async verifyWebhook(req, source) {
      const res = new WebhookResponse();
      await runForSource(source.id, () => channel.verifyWebhook(req, res, source));
      return res.toPlain();
    },
    async receiveWebhook(req, source) {
      const res = new WebhookResponse();
      try {
        await runForSource(source.id, () => channel.verifySignature(req, res, source));
      } catch {
        return { outcome: 'rejected', status: 401 };
      }
      try {
        const events = await runForSource(source.id, () => channel.decode(req, source));
        return { outcome: 'accepted', events: events.map((event) => event.bindSource(source).toPlain()), response: res.toPlain() };
      } catch (error) {
        const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
        if (code === 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' || name === 'ZodError') return { outcome: 'invalid', status: 400 };
        throw error;
      }
    },
    send: (event, source, envelope, options) => runForSource(source.id, () => channel.doSendMessage(bound(event, source), envelope, options)),
    async subscriberData(event, source) {
      return subscriberCreateDtoSchema.parse(await runForSource(source.id, () => channel.getSubscriberData(bound(event, source))));
    },
    typing: (event, source) => runForSource(source.id, () => channel.sendTypingIndicator(bound(event, source))),
  };
}
