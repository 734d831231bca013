/**
 * The host decides which source a plugin's service request acts for; the plugin only names it.
 * A channel's runner serves every source of that channel, so a source id in the request's
 * arguments (the SDK fills it in, but plugin code can write any) would let a call for source A
 * use source B's `x-egress` origins or download links. The host knows which call a request was
 * made in (runner-process.ts) and the source it sent that call for: that source replaces the
 * plugin's value here.
 */
import { AppError } from '../../errors/app-error.ts';

/**
 * `args` of a host service request with the source of the call it was made in, `undefined`
 * outside any call (at import, or in a timer that outlived its call):
 * - `fetch`: the request's `sourceId` is replaced by that source, or removed (then only the
 *   package's declared hosts are allowed, never an `x-egress` origin);
 * - `getAttachmentPublicUrl`: answered only for that source; any other id, or a request
 *   outside a call, is refused with `BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN`.
 * @example callSourceArgs('fetch', [{ url, method: 'GET', headers: [], sourceId: 'b' }], 'a') // [{ url, method: 'GET', headers: [], sourceId: 'a' }]
 */
export function callSourceArgs(method: string, args: unknown[], callSourceId: string | undefined): unknown[] {
  if (method === 'getAttachmentPublicUrl') return [ownSource(args[0], callSourceId), String(args[1])];
  if (method !== 'fetch' || typeof args[0] !== 'object' || args[0] === null) return args;
  const { sourceId: _claimed, ...request } = args[0] as { sourceId?: unknown };
  return [callSourceId === undefined ? request : { ...request, sourceId: callSourceId }, ...args.slice(1)];
}

function ownSource(claimed: unknown, callSourceId: string | undefined): string {
  if (callSourceId === undefined) {
    throw new AppError('BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN', 'A download link can only be asked for during a call, for the source that call serves');
  }
  if (String(claimed) !== callSourceId) {
    throw new AppError('BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN', 'A download link can only be asked for the source the current call serves');
  }
  return callSourceId;
}
