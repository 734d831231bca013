import type { ChangeNoticeKind } from '../db/change-notice-sync.ts';

/**
 * Writes to sources, as host instances tell each other of them (ChangeNoticeSync keeps every
 * instance's SourceCache in step with the sources table, the way ChannelSync keeps channels):
 * each write through the SourceStore sends `{ ref, from }` on `bot_source_changes` in its own
 * transaction and drops this instance's copy once committed; other instances drop theirs on the
 * notice.
 * @example
 * const sync = new ChangeNoticeSync(SOURCE_CHANGES, { db, cache: sourceCache, instanceId, logger });
 * const sources = new SourceStore(db, channels, now, sync);
 * await sync.start(); // other instances' writes reach `sourceCache` from now on
 */
export const SOURCE_CHANGES: ChangeNoticeKind = { channel: 'bot_source_changes', label: 'source change', keyField: 'ref' };
