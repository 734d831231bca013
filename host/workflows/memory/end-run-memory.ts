import type { MemoryRecordStore } from '../../memory/records/memory-record-store.ts';

/**
 * Removes the run-scope memory of a finished run. The runner calls it in `finally`, whatever
 * the outcome, and also when the run failed before its memory was opened (which is why it
 * needs only the run id). Returns how many records went.
 * @example try { … } finally { await endRunMemory(records, run.runId) }
 */
export function endRunMemory(records: Pick<MemoryRecordStore, 'endRun'>, runId: string): Promise<number> {
  return records.endRun(runId);
}
