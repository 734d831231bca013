import { WEB_CHANNEL } from '../web-chat/chat-page.routes.ts';

/** Where a source is reached from outside: a webhook URL, or for a socket channel none. */
export interface SourceLinks {
  webhookUrl: string | null;
  chatUrl: string | null;
}

/**
 * The links a source view shows. A WebSocket channel takes no webhooks (its route answers 405),
 * so it gets no webhook URL to copy; the built-in web channel's sources have a chat page
 * instead, the link to hand to people. A channel gone from the registry keeps its webhook URL:
 * the source was made for one, and events wait in the inbox until the channel is back.
 * @example sourceLinks({ ref: 'abc', channel: 'web' }, 'websocket', 'https://bot.example') // { webhookUrl: null, chatUrl: 'https://bot.example/chat/abc' }
 */
export function sourceLinks(source: { ref: string; channel: string }, kind: 'http' | 'websocket' | undefined, baseUrl: string): SourceLinks {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    webhookUrl: kind === 'websocket' ? null : `${base}/api/webhook/${source.ref}`,
    chatUrl: source.channel === WEB_CHANNEL ? `${base}/chat/${source.ref}` : null,
  };
}
