export { default, default as TelegramChannel } from './index.channel.ts';
