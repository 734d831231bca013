/**
 * The author kit in process (`@bot-ai/api/check`): the reference channel passes every check, and a
 * careless channel (no signature check, echoes let through) fails exactly those.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { checkPackageInProcess, formatCheckReport } from '@bot-ai/api/check';

const SAMPLE = fileURLToPath(new URL('../../../plugins/bot-channel-sample', import.meta.url));
const CARELESS = fileURLToPath(new URL('../../fixtures/channel-packages/bot-channel-careless', import.meta.url));

test('the sample channel passes every check of the author kit', async () => {
  const report = await checkPackageInProcess(SAMPLE);
  assert.equal(report.ok, true, formatCheckReport(report));
  const names = report.results.map((result) => result.name);
  for (const expected of ['the handshake refuses a wrong token', 'text-message.json: refused with body changed after signing', 'a rate-limited send (HTTP 429) asks to retry after 3000 ms', 'refuses buttons, which it does not declare', 'subscriber data falls back when the profile API fails']) {
    assert.ok(names.includes(expected), `no check "${expected}" in:\n${names.join('\n')}`);
  }
});

test('a channel that skips its signature check and lets an echo through fails those checks, and only those', async () => {
  const report = await checkPackageInProcess(CARELESS);
  assert.equal(report.ok, false);
  const failed = report.results.filter((result) => !result.ok).map((result) => result.name);
  assert.deepEqual(failed.sort(), [
    "echo.json: The platform echoes the bot's own message: noise",
    'echo.json: refused with another secret',
    'echo.json: refused with body changed after signing',
    'echo.json: refused with no signature',
    'text.json: refused with another secret',
    'text.json: refused with body changed after signing',
    'text.json: refused with no signature',
  ]);
  assert.match(formatCheckReport(report), /FAIL {2}echo\.json: .* — 1 events \(m-2\), expected 0: this delivery is noise/);
});
