import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { captureLogs } from '../access-control/captured-logs.ts';
import { makeDue, waitForRetry } from '../support/claim-events.ts';
import { ConversationHarness, sampleEvent } from './conversation-harness.ts';

const logs = captureLogs();
let harness: ConversationHarness;
before(async () => {
  harness = await ConversationHarness.start({ logger: logs.logger });
});
after(() => harness.close());

interface Line {
  level: number;
  msg: string;
  code?: string;
  error?: string;
  cause?: string;
  reason?: string;
  inboundEventId?: string;
}

const DEBUG = 20;
const WARN = 40;
const ERROR = 50;
const parsed = (): Line[] => logs.lines().map((line) => JSON.parse(line) as Line);

test('each failed attempt is one warn line with its code and cause; nothing at error until a dead letter', async () => {
  // Two refusals by the platform, then it answers: the event succeeds on its third attempt.
  harness.platform.failNext.push(503, 503);
  const before = parsed().length;
  assert.equal(await harness.deliver([sampleEvent('evt-logs-1', 'ada', 'my name is Ada')]), 200);
  for (const attempt of [1, 2]) {
    // Time passes: each retry is due as soon as it waits.
    await waitForRetry(harness.app.database.db, 'evt-logs-1', attempt);
    await makeDue(harness.app.database.db, ['evt-logs-1']);
  }
  const settled = await harness.settled(['evt-logs-1'], 30_000);
  assert.equal(settled.get('evt-logs-1')?.status, 'done');

  const lines = parsed().slice(before);
  const failures = lines.filter((line) => line.msg === 'inbound event attempt failed; it is retried with backoff');
  assert.equal(failures.length, 2, 'one line per failed attempt');
  for (const line of failures) {
    assert.equal(line.level, WARN);
    assert.ok(line.code, 'the line names the code');
    assert.match(`${line.error} ${line.cause ?? ''}`, /503/, 'and the cause: the platform answered 503');
  }
  assert.deepEqual(lines.filter((line) => line.level >= ERROR).map((line) => line.msg), [], 'no error-level line for an attempt that is retried');
  const stacks = lines.filter((line) => line.msg === 'inbound event attempt failed (stack)');
  assert.deepEqual(stacks.map((line) => line.level), [DEBUG, DEBUG], 'the stack of each goes at debug');
});

test('a request is logged at debug, a health probe never above it', async () => {
  const before = parsed().length;
  assert.equal((await harness.app.request('GET', '/health/live')).status, 200);
  const requests = parsed()
    .slice(before)
    .filter((line) => line.msg === 'request');
  assert.equal(requests.length, 1);
  assert.ok(requests[0]!.level < 30, 'below info');
});

test('an event skipped for lack of a workflow says so at warn, with the reason', async () => {
  const source = await harness.app.request('PATCH', `/api/sources/${harness.source.id}`, { as: 'admin', body: { defaultWorkflowId: null } });
  assert.equal(source.status, 200, source.text);
  const before = parsed().length;
  assert.equal(await harness.deliver([sampleEvent('evt-logs-skip', 'bob', 'hello')]), 200);
  const settled = await harness.settled(['evt-logs-skip'], 30_000);
  assert.equal(settled.get('evt-logs-skip')?.status, 'skipped');
  const skipped = parsed()
    .slice(before)
    .filter((line) => line.msg === 'inbound event skipped: no workflow runs for it');
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0]!.level, WARN);
  assert.match(skipped[0]!.reason ?? '', /no workflow/);
});
