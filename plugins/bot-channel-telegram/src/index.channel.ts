import { HttpChannelHandler, Injectable, z, type ChannelInboundEvent, type SendMessageResult, type SubscriberCreateDto } from '@bot-ai/api';

const settingsSchema = z.object({});

/** Placeholder while the channel is written: decodes nothing, sends nothing. */
@Injectable()
export default class TelegramChannel extends HttpChannelHandler<typeof settingsSchema> {
  constructor() {
    super('telegram', settingsSchema);
  }

  decode(): ChannelInboundEvent[] {
    return [];
  }

  doSendMessage(): Promise<SendMessageResult> {
    return Promise.reject(new Error('not written yet'));
  }

  getSubscriberData(): SubscriberCreateDto {
    throw new Error('not written yet');
  }
}
