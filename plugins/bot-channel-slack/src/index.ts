export { default, default as SlackChannel } from './index.channel.ts';
