export { default, default as WhatsAppChannel } from './index.channel.ts';
