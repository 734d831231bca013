import type { MemoryRecord } from './memory-record.ts';
import type { MemoryRecordStore } from './memory-record-store.ts';

/**
 * An operator's edit of one record: the same write a workflow makes for the record's owner,
 * workflow, thread and run, so the value is checked against the definition's current schema by
 * the same validator, and the record keeps its identity (the upsert lands on it).
 * @example await replaceRecordValue(records, id, { name: 'Ada' })
 */
export async function replaceRecordValue(records: MemoryRecordStore, id: string, value: unknown): Promise<MemoryRecord> {
  const record = await records.get(id);
  const [written] = await records.write(
    {
      ownerId: record.ownerId,
      ...(record.workflowId ? { workflowId: record.workflowId } : {}),
      ...(record.threadId ? { threadId: record.threadId } : {}),
      ...(record.runId ? { runId: record.runId } : {}),
    },
    { [record.slug]: value },
  );
  return written!;
}
