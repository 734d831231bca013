/**
 * Worker side: the tasks on an event already decoded (and stored) by the host. The event is
 * rebuilt from its plain form and bound to the one source it belongs to.
 */
import {
  rebuildInboundEvent,
  subscriberCreateDtoSchema,
  type ChannelSource,
  type HttpChannelHandler,
  type PlainInboundEvent,
  type SendMessageOptions,
  type SendMessageResult,
  type StdOutgoingMessageEnvelope,
  type SubscriberCreateDto,
} from '@bot-ai/api';
import { z } from 'zod';
import { callPlugin } from './call-plugin.ts';
import type { PlainSubscriberData } from './protocol.ts';
import { SandboxError } from './sandbox-error.ts';

/** Sends one envelope and returns the platform's message id. */
export async function sendTask(
  handler: HttpChannelHandler,
  plain: PlainInboundEvent,
  source: ChannelSource,
  envelope: StdOutgoingMessageEnvelope,
  options: SendMessageOptions,
): Promise<SendMessageResult> {
  const event = rebuildInboundEvent(plain).bindSource(source);
  const result = await callPlugin('doSendMessage', () => handler.doSendMessage(event, envelope, options));
  const mid = (result as Partial<SendMessageResult> | null | undefined)?.mid;
  if (typeof mid !== 'string' || mid === '') {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', 'doSendMessage() must return { mid: string }');
  }
  return { mid };
}

/** The new subscriber's fields, validated, with dates as ISO strings. */
export async function subscriberDataTask(handler: Pick<HttpChannelHandler, 'getSubscriberData'>, plain: PlainInboundEvent, source: ChannelSource): Promise<PlainSubscriberData> {
  const event = rebuildInboundEvent(plain).bindSource(source);
  const dto = await callPlugin('getSubscriberData', () => handler.getSubscriberData(event));
  const parsed = subscriberCreateDtoSchema.safeParse(dto);
  if (!parsed.success) {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `getSubscriberData() returned an invalid subscriber: ${z.prettifyError(parsed.error)}`);
  }
  return toPlainSubscriber(parsed.data);
}

function toPlainSubscriber(dto: SubscriberCreateDto): PlainSubscriberData {
  return {
    ...dto,
    assignedAt: dto.assignedAt?.toISOString() ?? null,
    lastvisit: dto.lastvisit.toISOString(),
    retainedFrom: dto.retainedFrom.toISOString(),
  };
}
