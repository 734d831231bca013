import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frameChargeCeilingMs, WireBudget } from '../../../host/channels/runner/wire-budget.ts';

function budgetAt(hostMsPerSecond = 100) {
  let now = 0;
  const budget = new WireBudget({ hostMsPerSecond }, () => now);
  return { budget, advance: (ms: number) => (now += ms) };
}

test("a second's worth of host time goes through before any pause; past it, the pause pays the excess back", () => {
  const { budget } = budgetAt();
  budget.spend(100);
  assert.equal(budget.debtMs(), 0);
  budget.spend(1);
  assert.equal(budget.debtMs(), 10, '1 ms over, at 100 ms a second: 10 ms');
});

test('one costly frame is handled, then paid for with a longer pause', () => {
  const { budget } = budgetAt();
  budget.spend(300);
  assert.equal(budget.debtMs(), 2_000);
});

test('the bucket refills with time, up to one second of it, never more', () => {
  const { budget, advance } = budgetAt();
  budget.spend(150);
  advance(250);
  assert.equal(budget.debtMs(), 250);
  advance(250);
  assert.equal(budget.debtMs(), 0);
  advance(60_000);
  budget.spend(101);
  assert.equal(budget.debtMs(), 10, 'a long quiet spell buys no more than the burst');
});

test('the rate must be positive', () => {
  assert.throws(() => new WireBudget({ hostMsPerSecond: 0 }), RangeError);
});

test("a frame is charged no more than its bytes could cost: a stall of the host's that falls in a small one is not the runner's", () => {
  assert.ok(frameChargeCeilingMs(200) < 1.1, 'a log line: about a millisecond at most');
  assert.ok(frameChargeCeilingMs(32 * 1024 * 1024) > 12_000, 'a 32 MiB frame of the costliest shape: all of its parse');
});
