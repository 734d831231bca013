import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { LineRateLimit } from '../../host/logging/line-rate-limit.ts';

/** A limit of `perSecond` on mocked timers and clock; `reports` collects what onDropped heard. */
function limitOf(t: TestContext, perSecond: number): { limit: LineRateLimit; reports: number[]; allowed: (lines: number) => number } {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const reports: number[] = [];
  const limit = new LineRateLimit(perSecond, (count) => reports.push(count), () => Date.now());
  const allowed = (lines: number) => Array.from({ length: lines }, () => limit.allow()).filter(Boolean).length;
  return { limit, reports, allowed };
}

test('lets through up to its rate in one second and drops the rest', (t) => {
  const { allowed, reports } = limitOf(t, 3);
  assert.equal(allowed(10), 3);
  assert.deepEqual(reports, []);
});

test('reports how many lines it dropped once, when their second is over', (t) => {
  const { allowed, reports } = limitOf(t, 3);
  allowed(10);
  t.mock.timers.tick(999);
  assert.deepEqual(reports, []);
  t.mock.timers.tick(1);
  assert.deepEqual(reports, [7]);
  t.mock.timers.tick(5_000);
  assert.deepEqual(reports, [7]);
});

test('lets lines through again in the next second, each flooded second reported on its own', (t) => {
  const { allowed, reports } = limitOf(t, 3);
  allowed(5);
  t.mock.timers.tick(1_000);
  assert.equal(allowed(4), 3);
  t.mock.timers.tick(1_000);
  assert.deepEqual(reports, [2, 1]);
});

test('reports the dropped lines before the next second lets any through, should its timer be late', (t) => {
  const order: string[] = [];
  t.mock.timers.enable({ apis: ['Date'] });
  const limit = new LineRateLimit(1, (count) => order.push(`dropped ${count}`), () => Date.now());
  limit.allow();
  limit.allow();
  t.mock.timers.setTime(Date.now() + 1_500);
  if (limit.allow()) order.push('line');
  assert.deepEqual(order, ['dropped 1', 'line']);
  limit.close();
});

test('close reports what it dropped at once', (t) => {
  const { limit, allowed, reports } = limitOf(t, 1);
  allowed(3);
  limit.close();
  assert.deepEqual(reports, [2]);
  t.mock.timers.tick(1_000);
  assert.deepEqual(reports, [2]);
});

test('refuses a rate that is not a positive integer', () => {
  assert.throws(() => new LineRateLimit(0, () => {}), /perSecond must be a positive integer/);
});
