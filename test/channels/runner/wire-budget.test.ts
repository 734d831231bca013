import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WireBudget } from '../../../host/channels/runner/wire-budget.ts';

function budgetAt(rates = { messagesPerSecond: 100, bytesPerSecond: 1_000 }) {
  let now = 0;
  const budget = new WireBudget(rates, () => now);
  return { budget, advance: (ms: number) => (now += ms) };
}

test("a second's worth of messages and bytes goes through before any pause", () => {
  const { budget } = budgetAt();
  for (let sent = 0; sent < 100; sent++) budget.spend(10);
  assert.equal(budget.debtMs(), 0);
  budget.spend(10);
  assert.equal(budget.debtMs(), 10, 'one message over, at 100 a second: 10 ms');
});

test('the bytes bucket is judged alike, and one message larger than a second of bytes is paid back with a longer pause', () => {
  const { budget } = budgetAt();
  budget.spend(3_000);
  assert.equal(budget.debtMs(), 2_000);
});

test('the buckets refill with time, up to one second of each, never more', () => {
  const { budget, advance } = budgetAt();
  budget.spend(1_500);
  advance(250);
  assert.equal(budget.debtMs(), 250);
  advance(250);
  assert.equal(budget.debtMs(), 0);
  advance(60_000);
  for (let sent = 0; sent < 101; sent++) budget.spend(0);
  assert.equal(budget.debtMs(), 10, 'a long quiet spell buys no more than the burst');
});

test('rates must be positive', () => {
  assert.throws(() => new WireBudget({ messagesPerSecond: 0, bytesPerSecond: 1 }), RangeError);
});
