/**
 * The channel attributes of a WhatsApp event and subscriber: the business phone number the
 * message was sent to, by its Cloud API id (what sends need) and as displayed.
 * @example const { phone_number_id } = event.getChannelData<WhatsAppChannelAttributes>();
 */
export type WhatsAppChannelAttributes = {
  phone_number_id: string;
  display_phone_number: string;
};

declare module '@bot-ai/types' {
  interface SubscriberChannelDict {
    whatsapp: WhatsAppChannelAttributes;
  }
}
