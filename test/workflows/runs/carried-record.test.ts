import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { RunRecords } from '../../../host/workflows/runtime/run-records.ts';
import { appWithProfile, runRememberThenReply } from './runner-fixture.ts';

// The carried statement (a memory step's record and write, the next step's first claim) commits,
// but its answer is lost with the connection: it may have committed, so this attempt neither
// writes it again nor sends; the run fails, and the event's retry finds what committed.

const fixture = appWithProfile();

function runOnce(owner: string, name: string) {
  return runRememberThenReply(fixture.app, fixture.profileId, owner, name);
}

test('a lost answer of the carried statement fails the run: the memory step is not written again, and nothing is sent', async () => {
  const owner = `test:${randomUUID()}`;
  // warm the definitions cache: the first write reads them the checked way
  await runOnce(owner, 'warm');
  const original = RunRecords.prototype.stepWithClaim;
  const originalStep = RunRecords.prototype.step;
  let commits = 0;
  RunRecords.prototype.step = async function (write) { if (write.memory) commits += 1; return originalStep.call(this, write); };
  RunRecords.prototype.stepWithClaim = async function ({ write }) {
    // The statement commits the step and its memory write (as stepWithClaim's would) ...
    if (write.memory) commits += 1;
    const answer = await originalStep.call(this, write);
    await write.memory?.settle(answer.memoryWritten, answer.memoryCurrent);
    // ... and its answer is lost.
    throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
  };
  try {
    const result = await runOnce(owner, 'Ada');
    assert.equal(commits, 1, `the memory step's write was committed ${commits} times in one attempt`);
    assert.equal(result.status, 'failed');
    assert.equal(result.error?.code, '08006');
    assert.deepEqual(result.steps.map((step) => [step.task, step.status]), [['remember', 'succeeded'], ['reply', 'failed']]);
  } finally {
    RunRecords.prototype.stepWithClaim = original;
    RunRecords.prototype.step = originalStep;
  }
});
