/**
 * The channels between a runner and its host: plugin code can write raw bytes to
 * any file descriptor of its runner — the fork's IPC channel (fd 3), stdout and stderr — so the
 * host must survive whatever arrives there: a malformed message, a message that never ends, a
 * line that never ends. Each attack runs against a host in a child process (child-host.ts),
 * which must stay alive, keep its memory, and serve the channel again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runChildHost, type ChildHostReport } from './run-child-host.ts';

/** What the host may grow by while a plugin floods it: far less than the flood. */
const MAX_GROWTH_MB = 256;

/** The host lived through the attacks, serves the channel again, and kept its memory. */
function assertHostSurvived(report: ChildHostReport): void {
  assert.equal(report.exitCode, 0, `the host died:\n${report.stderr}`);
  const last = report.lines.at(-1) ?? {};
  assert.equal(last.alive, true, 'the channel serves again');
  const growth = Number(last.peakRssMb) - Number(last.baselineRssMb);
  assert.ok(growth < MAX_GROWTH_MB, `the host grew by ${growth} MB`);
}

test('a plugin writing an ordinary line to stdout leaves the host serving (the control)', async (t) => {
  const report = await runChildHost(t, [{ attack: 'write-fd', fd: 1, hex: Buffer.from('a plugin line\n').toString('hex') }]);
  assertHostSurvived(report);
});

test("a malformed message a plugin writes to its runner's IPC channel ends that runner at most, never the host", async (t) => {
  // A 4-byte length, then bytes that are no V8 serialization.
  const report = await runChildHost(t, [{ attack: 'write-fd', fd: 3, hex: '00000008ffffffffffffffff' }]);
  assertHostSurvived(report);
});

test("a message on the runner's IPC channel that never ends does not fill the host's memory", async (t) => {
  // A length of 2 GiB announced, then 768 MB of it sent.
  const report = await runChildHost(t, [{ attack: 'flood-fd', fd: 3, hex: '7fffffff', mb: 768, byte: 0 }]);
  assertHostSurvived(report);
});

test("a line on the runner's stdout that never ends neither fills the host's memory nor ends it", async (t) => {
  // Past 512 MB a string cannot grow: a host buffering the line dies of it.
  const report = await runChildHost(t, [{ attack: 'flood-fd', fd: 1, hex: '41', mb: 600, byte: 0x41 }]);
  assertHostSurvived(report);
});
