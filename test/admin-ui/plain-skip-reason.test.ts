import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainSkipReason } from '../../host/admin/src/pages/runs/plain-skip-reason.ts';

// The reasons exactly as host/dispatch/inbound-event-processor.ts records them.
const CASES: [string | null, string][] = [
  ['no workflow: none in the URL and no default on the source', 'Not answered: the source has no default workflow and the webhook URL named none. Set a default workflow on the source, then retry.'],
  ['source inactive', 'The source was inactive when it arrived.'],
  ['source deleted', 'Its source has been deleted.'],
  ['no sender foreign id', 'The event named no sender, so there was no one to answer.'],
  ['workflow 0b6c1a52-3f1e-4d7a-9c55-2a8f0e4b1d90 does not exist', 'The workflow it was meant for no longer exists.'],
  [null, 'No reason recorded.'],
  ['something new', 'something new'],
];

for (const [reason, expected] of CASES) {
  test(`a skipped event's reason ${JSON.stringify(reason)} reads as a plain sentence`, () => {
    assert.equal(plainSkipReason(reason), expected);
  });
}
