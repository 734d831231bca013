import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isJobEngineRejection } from '../../host/dispatch/job-engine-rejections.ts';

const MODULE = fileURLToPath(new URL('../../host/dispatch/job-engine-rejections.ts', import.meta.url));

/** An error as graphile-worker's local queue raises it, with its frames. */
function jobEngineError(): Error {
  const error = new Error('Error occurred whilst returning jobs from local queue to database queue: Connection terminated unexpectedly');
  error.stack = `${error.message}\n    at onError (/srv/bot/node_modules/graphile-worker/src/localQueue.ts:493:17)\n    at process.processTicksAndRejections (node:internal/process/task_queues:104:5)`;
  return error;
}

test("graphile-worker's rejections are told apart by where they were made, not by the async frames below", () => {
  assert.equal(isJobEngineRejection(jobEngineError()), true);
  const aggregate = new AggregateError([new Error('x')], 'Worker did not exit cleanly');
  aggregate.stack = `AggregateError: Worker did not exit cleanly\n    at LocalQueue.fin (/srv/bot/node_modules/graphile-worker/dist/localQueue.js:260:36)`;
  assert.equal(isJobEngineRejection(aggregate), true);
  // Our own task code runs under graphile-worker's worker loop: its errors carry those frames below.
  const ours = new Error('a bug of ours');
  ours.stack = `Error: a bug of ours\n    at InboundEventProcessor.process (/srv/bot/host/dispatch/inbound-event-processor.ts:240:11)\n    at async doNext (/srv/bot/node_modules/graphile-worker/dist/worker.js:125:27)`;
  assert.equal(isJobEngineRejection(ours), false);
  assert.equal(isJobEngineRejection(new Error('ours')), false);
  assert.equal(isJobEngineRejection('a string'), false);
  assert.equal(isJobEngineRejection(undefined), false);
});

/** Runs a process that contains job engine rejections, then leaves `rejection` unhandled. */
function runWithUnhandled(rejection: string): { status: number | null; stdout: string; stderr: string } {
  const code = `
    import { containJobEngineRejections } from ${JSON.stringify(MODULE)};
    containJobEngineRejections({ error: (fields, message) => console.log('logged:', message) });
    ${rejection}
    setTimeout(() => console.log('still running'), 50);`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("a process survives graphile-worker's unhandled rejection, logging it", () => {
  const result = runWithUnhandled(`
    const error = new Error('Error occurred whilst returning jobs from local queue to database queue');
    error.stack = error.message + '\\n    at onError (/srv/bot/node_modules/graphile-worker/src/localQueue.ts:493:17)';
    Promise.reject(error);`);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /logged: the job engine left a failure unhandled/);
  assert.match(result.stdout, /still running/);
});

test('any other unhandled rejection still ends the process, as Node would', () => {
  const result = runWithUnhandled(`Promise.reject(new Error('a bug of ours'));`);
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /a bug of ours/);
  assert.doesNotMatch(result.stdout, /still running/);
});
