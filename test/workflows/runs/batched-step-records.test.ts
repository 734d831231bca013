import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { UpsertedRow } from '../../../host/memory/records/upsert-records.ts';
import type { StepWrite } from '../../../host/workflows/runtime/run-end-sql.ts';
import { RunRecords } from '../../../host/workflows/runtime/run-records.ts';
import { appWithProfile, rememberThenReplyRunner, runRememberThenReply } from './runner-fixture.ts';

// Concurrent runs' step records share one statement, and so do their memory writes: each step
// is told the rows its own write stored, never another run's.

const fixture = appWithProfile();

const RUNS = 4;

test('steps recorded in one statement each get back the memory rows of their own write', async () => {
  const owners = Array.from({ length: RUNS }, (_, index) => ({ owner: `test:${randomUUID()}`, name: `Name${index}` }));
  // One runner, as the host has: its runs' records share its batched statements.
  const runner = rememberThenReplyRunner(fixture.app);
  // warm the definitions cache: the first write reads them the checked way, not with the record
  await Promise.all(owners.map(({ owner }) => runRememberThenReply(fixture.app, fixture.profileId, owner, 'warm', runner)));

  const { step, stepWithClaim } = RunRecords.prototype;
  const told: { owner: string | undefined; written: UpsertedRow[]; current: boolean }[] = [];
  const held: (() => void)[] = [];
  // The first memory step's record of each run waits for the others', then all go in one turn
  // of the event loop: they share one statement.
  const together = async <T extends { memoryWritten: UpsertedRow[]; memoryCurrent: boolean }>(write: StepWrite, record: () => Promise<T>): Promise<T> => {
    if (write.memory && held.length < RUNS) {
      const { promise, resolve } = Promise.withResolvers<void>();
      held.push(resolve);
      if (held.length === RUNS) for (const release of held) release();
      await promise;
    }
    const answer = await record();
    if (write.memory) told.push({ owner: write.memory.call.rows[0]?.owner_id, written: answer.memoryWritten, current: answer.memoryCurrent });
    return answer;
  };
  RunRecords.prototype.step = function (write) {
    return together(write, () => step.call(this, write));
  };
  RunRecords.prototype.stepWithClaim = function (item, resendUnknown) {
    return together(item.write, () => stepWithClaim.call(this, item, resendUnknown));
  };
  try {
    const results = await Promise.all(owners.map(({ owner, name }) => runRememberThenReply(fixture.app, fixture.profileId, owner, name, runner)));
    assert.deepEqual(results.map((result) => result.status), owners.map(() => 'succeeded'));
  } finally {
    Object.assign(RunRecords.prototype, { step, stepWithClaim });
  }
  assert.ok(told.length >= RUNS, `${told.length} memory writes recorded`);
  for (const { owner, written, current } of told) {
    assert.equal(current, true);
    const expected = owners.find((entry) => entry.owner === owner);
    assert.ok(expected, `a write of an unknown owner: ${owner}`);
    assert.deepEqual(written.map((row) => [row.owner_id, (row.value as { name?: string }).name]), [[owner, expected.name]]);
    assert.ok(written[0]!.updated_at instanceof Date, 'stored times are read as Dates');
  }
});
