export { default, default as MessengerChannel } from './index.channel.ts';
