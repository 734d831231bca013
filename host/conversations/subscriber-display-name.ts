import type { Knex } from 'knex';
import { isUuid } from '../db/fetch-sorted-page.ts';

/** The channel name of the built-in live chat (as sources name it). */
const WEB_CHANNEL = 'web';

/** What a subscriber's display name is made from. */
export interface SubscriberNameParts {
  id: string;
  firstName: string;
  lastName: string;
  /** The newest `name` a workflow remembered for them (a memory record's top-level `name`). */
  storedName: string | null;
  /** Their source's channel, null when unknown. */
  channel: string | null;
}

/**
 * How the panel and the API name a subscriber, in this order: the name their platform gave;
 * else the name a workflow remembered (a web visitor is anonymous until a workflow asks); else
 * "Web visitor 3f2a" for the live chat, "Subscriber 3f2a" elsewhere (the first 4 hex digits of
 * their id, enough to tell visitors apart on one screen and to search for them).
 * @example subscriberDisplayName({ id: '3f2a…', firstName: '', lastName: '', storedName: null, channel: 'web' }) // 'Web visitor 3f2a'
 */
export function subscriberDisplayName(parts: SubscriberNameParts): string {
  const platformName = `${parts.firstName} ${parts.lastName}`.trim();
  if (platformName) return platformName;
  const stored = parts.storedName?.trim();
  if (stored) return stored;
  const short = parts.id.replace(/-/g, '').slice(0, 4);
  return parts.channel === WEB_CHANNEL ? `Web visitor ${short}` : `Subscriber ${short}`;
}

/**
 * The display names of the subscribers among `ownerIds` (run owners are subscriber ids, or
 * `test:<name>` for test runs, which have none), in one statement. An erased subscriber has no
 * entry.
 * @example const names = await subscriberDisplayNames(db, runs.map((run) => run.owner_id));
 */
export async function subscriberDisplayNames(db: Knex, ownerIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(ownerIds.filter(isUuid))];
  if (ids.length === 0) return new Map();
  const rows: { id: string; first_name: string; last_name: string; channel: string | null; stored_name: string | null }[] = await db('subscribers as s')
    .leftJoin('sources as src', 'src.id', 's.source_id')
    .whereIn('s.id', ids)
    .select('s.id', 's.first_name', 's.last_name', 'src.channel', storedNameSql(db));
  return new Map(rows.map((row) => [row.id, subscriberDisplayName({ id: row.id, firstName: row.first_name, lastName: row.last_name, storedName: row.stored_name, channel: row.channel })]));
}

/**
 * The newest non-empty string `name` among the subscriber's unexpired memory records, whatever
 * the definition: workflows remember a visitor's name under slugs of their own choosing. Reads
 * through the `(owner_id, …)` identity index.
 */
export function storedNameSql(db: Knex): Knex.Raw {
  return db.raw(`(
    SELECT r.value->>'name' FROM memory_records r
     WHERE r.owner_id = s.id::text AND jsonb_typeof(r.value->'name') = 'string' AND btrim(r.value->>'name') <> ''
       AND (r.expires_at IS NULL OR r.expires_at > now())
     ORDER BY r.updated_at DESC LIMIT 1
  ) AS stored_name`);
}

/**
 * A search for "Web visitor 3f2a" or "Subscriber 3f2a", the way unnamed subscribers are shown,
 * is a search for their id's first digits.
 * @example withoutNamePrefix('Web visitor 3f2a') // '3f2a'
 */
export function withoutNamePrefix(q: string): string {
  return q.replace(/^(web visitor|subscriber)\s+/i, '');
}
