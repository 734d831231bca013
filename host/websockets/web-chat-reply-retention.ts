import { batchDeleteSql, type SweepTarget } from '../memory/records/ttl-sweeper.ts';

/**
 * Live chat replies older than `retentionMs` (BOT_WEB_CHAT_REPLY_RETENTION_MS): kept that long so
 * a client that comes back gets what it missed and its page history, then deleted in batches by
 * a TtlSweeper. Lock key: "wcreply" in ASCII.
 */
export function oldWebChatReplies(retentionMs: number): SweepTarget {
  return {
    name: 'old live chat replies',
    lockKey: 0x77637265706c79n,
    deleteBatchSql: batchDeleteSql('web_chat_replies', 'created_at'),
    cutoff: (now) => new Date(now.getTime() - retentionMs),
  };
}
