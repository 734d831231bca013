import type { Knex } from 'knex';
import { median } from './measure.ts';

/** Where a message's time goes, each the median over a phase's messages, in ms. */
export interface StageMedians {
  /** Webhook received → its 200 at the load process: the sandbox's verify and decode, the inbox's group commit and the answer. */
  commitAndAck: number;
  /** Events row committed → run started: the claim (NOTIFY or hand-off), source, workflow, subscriber, thread, inbound history. */
  pickupAndLookups: number;
  /** Run started → send recorded: run row and memory load (side by side), update_memory, its step row, the reply's inputs, the outbox claim. */
  runToSend: number;
  /** Send recorded → platform got it: the sandbox call (queue, worker, plugin, fetch). */
  sendToPlatform: number;
  /** Platform got it → its answer back in the run (`sent_at`): the answer back through the sandbox. */
  platformToMarked: number;
  /**
   * Answer back → run finished: memory end. The reply's `sent` mark, its history entry, the last
   * step, the run's end and the event's outcome are then written by one statement, whose commit
   * no column times.
   */
  markedToFinished: number;
}

interface StageRow {
  name: string;
  received: number;
  run_started: number;
  send_claimed: number;
  sent_marked: number;
  run_finished: number;
}

/**
 * Reads the timestamps the pipeline stores for the messages named `prefix…` and combines them
 * with the load process's acknowledgements and the platform's arrivals (the same machine's clock).
 */
export async function readStageMedians(db: Knex, prefix: string, acks: Map<string, number>, arrivals: Map<string, number>): Promise<StageMedians> {
  const epochMs = (column: string) => db.raw(`extract(epoch from ${column}) * 1000`);
  const rows: StageRow[] = await db('inbound_events as e')
    .join('workflow_runs as r', 'r.inbound_event_id', 'e.id')
    .join('outbound_messages as o', 'o.inbound_event_id', 'e.id')
    .whereLike('e.event_id', `${prefix}%`)
    .where('r.status', 'succeeded')
    .select({
      name: 'e.event_id',
      received: epochMs('e.received_at'),
      run_started: epochMs('r.started_at'),
      send_claimed: epochMs('o.created_at'),
      sent_marked: epochMs('o.sent_at'),
      run_finished: epochMs('r.finished_at'),
    });
  const complete = rows.map((row) => ({ ...numbers(row), ack: acks.get(row.name), arrival: arrivals.get(row.name) })).filter((row) => row.ack !== undefined && row.arrival !== undefined);
  const stage = (pick: (row: (typeof complete)[number]) => number) => median(complete.map(pick));
  return {
    commitAndAck: stage((row) => row.ack! - row.received),
    pickupAndLookups: stage((row) => row.run_started - row.received),
    runToSend: stage((row) => row.send_claimed - row.run_started),
    sendToPlatform: stage((row) => row.arrival! - row.send_claimed),
    platformToMarked: stage((row) => row.sent_marked - row.arrival!),
    markedToFinished: stage((row) => row.run_finished - row.sent_marked),
  };
}

/** pg returns `numeric` as strings. */
function numbers(row: StageRow): StageRow {
  return {
    name: row.name,
    received: Number(row.received),
    run_started: Number(row.run_started),
    send_claimed: Number(row.send_claimed),
    sent_marked: Number(row.sent_marked),
    run_finished: Number(row.run_finished),
  };
}
