/**
 * The channel attributes of a sample-platform event and subscriber: the tenant the event came
 * from and the bot account it was sent to (empty strings when the platform left them out).
 * @example const { tenant_id } = event.getChannelData<SampleChannelAttributes>();
 */
export type SampleChannelAttributes = {
  tenant_id: string;
  recipient_id: string;
};

declare module '@bot-ai/types' {
  interface SubscriberChannelDict {
    sample: SampleChannelAttributes;
  }
}
