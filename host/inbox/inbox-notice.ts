import { isUuid } from '../db/fetch-sorted-page.ts';

/** The NOTIFY channel the inbox signals on when it commits new events (and an admin queues one again). */
export const INBOX_CHANNEL = 'bot_inbox';

/** Events a notice names at most: 200 ids and their commas fit PostgreSQL's 8,000-byte payload. */
export const MAX_ANNOUNCED_EVENTS = 200;

/**
 * What an inbox notice announces: the ids of the events it committed, or `anything` when it names
 * none (too many for one notice, or a payload this version does not read): then only a claim
 * over the whole inbox finds what is new.
 */
export function readInboxNotice(payload: string | undefined): string[] | 'anything' {
  if (!payload) return 'anything';
  const ids = payload.split(',');
  return ids.every(isUuid) ? ids : 'anything';
}
