/**
 * Worker side: whether a handler has a connect step of its own. The SDK's `connect()` only
 * rejects with `BOT_ERR_CHANNEL_CONNECT_UNSUPPORTED`; a channel has a connect step when something
 * below the SDK's base class (the plugin's class, a helper class between them, or the instance
 * itself) defines `connect`. The base is found by its brand, never by identity, because a plugin
 * may resolve its own copy of the SDK, whose `HttpChannelHandler.prototype` is not the host's.
 *
 * Loaded without tsx (Node's own type stripping): erasable TypeScript only.
 */
import { CHANNEL_HANDLER_KIND } from '@bot-ai/api';

/**
 * True when the `connect` the handler would call is not the SDK's default.
 * @example isConnectable(new TelegramChannel()) // true: it overrides connect() with setWebhook
 */
export function isConnectable(handler: object): boolean {
  if (typeof (handler as { connect?: unknown }).connect !== 'function') return false;
  for (let owner: object | null = handler; owner !== null; owner = Object.getPrototypeOf(owner)) {
    if (!Object.hasOwn(owner, 'connect')) continue;
    // The first definition on the way up is the one a call runs: the plugin's, or the base's.
    return !isSdkBasePrototype(owner);
  }
  return false;
}

/** `HttpChannelHandler.prototype` (of any SDK copy): its constructor carries the kind brand as its own static. */
function isSdkBasePrototype(owner: object): boolean {
  const constructor = Object.hasOwn(owner, 'constructor') ? (owner as { constructor: unknown }).constructor : undefined;
  return typeof constructor === 'function' && Object.hasOwn(constructor, CHANNEL_HANDLER_KIND);
}
