import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameRateLimiter } from '../../host/websockets/frame-rate-limiter.ts';

test('a burst is allowed at once, then frames come back at the average rate', () => {
  let now = 0;
  const limiter = new FrameRateLimiter({ perSecond: 5, burst: 3, now: () => now });
  assert.deepEqual([limiter.take(), limiter.take(), limiter.take(), limiter.take()], [true, true, true, false]);
  now += 199;
  assert.equal(limiter.take(), false, 'less than one frame earned');
  now += 1;
  assert.equal(limiter.take(), true, 'one frame per 200 ms at 5/s');
  now += 10_000;
  assert.deepEqual([limiter.take(), limiter.take(), limiter.take(), limiter.take()], [true, true, true, false], 'never more than the burst');
});

for (const options of [{ perSecond: 0, burst: 1 }, { perSecond: 1, burst: 0 }, { perSecond: Number.NaN, burst: 1 }]) {
  test(`refuses the options ${JSON.stringify(options)}`, () => {
    assert.throws(() => new FrameRateLimiter(options), RangeError);
  });
}
