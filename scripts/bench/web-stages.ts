import type { Knex } from 'knex';
import { formatMs, median, printTable } from './measure.ts';

interface StageRow {
  received: string;
  run_started: string;
  send_claimed: string;
  reply_stored: string;
  sent_marked: string;
  run_finished: string;
}

/**
 * Where a chat message's time goes on the host, from the timestamps the pipeline stores (medians
 * over the run's messages, warm-up excluded by `since`): intake to the run, the run to its send,
 * the sandbox encode and the reply commit, then the end of the run.
 */
export async function printWebStages(db: Knex, since: Date): Promise<void> {
  const epochMs = (column: string) => db.raw(`extract(epoch from ${column}) * 1000`);
  const rows: StageRow[] = await db('inbound_events as e')
    .join('workflow_runs as r', 'r.inbound_event_id', 'e.id')
    .join('outbound_messages as o', 'o.inbound_event_id', 'e.id')
    .join('web_chat_replies as w', 'w.send_key', 'o.send_key')
    .where('e.received_at', '>=', since)
    .where('r.status', 'succeeded')
    .select({
      received: epochMs('e.received_at'),
      run_started: epochMs('r.started_at'),
      send_claimed: epochMs('o.created_at'),
      reply_stored: epochMs('w.created_at'),
      sent_marked: epochMs('o.sent_at'),
      run_finished: epochMs('r.finished_at'),
    });
  const stage = (from: keyof StageRow, to: keyof StageRow) => formatMs(median(rows.map((row) => Number(row[to]) - Number(row[from]))));
  printTable(`where the time goes on the host (medians of ${rows.length} messages)`, [
    ['stage', 'median'],
    ['committed → run started (pickup, subscriber, thread)', stage('received', 'run_started')],
    ['run started → send recorded (memory, update_memory)', stage('run_started', 'send_claimed')],
    ['send recorded → reply stored (sandbox encode, commit)', stage('send_claimed', 'reply_stored')],
    ['reply stored → answer back', stage('reply_stored', 'sent_marked')],
    ['answer back → run finished (then one statement marks it sent)', stage('sent_marked', 'run_finished')],
  ]);
}
