/**
 * A real runner under its seccomp filter: Node starts, does async fs I/O through its thread pool
 * and answers the host; /proc shows the filter in force on the processes in the sandbox, and
 * diagnostics say so from there; the filter's descriptor is gone before Node starts; and a host on
 * an architecture the filter does not know gets the `reduced` tier.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { test, type TestContext } from 'node:test';
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import { detectIsolation } from '../../host/channels/runner/detect-isolation.ts';
import { processTreeUsage } from '../../host/channels/runner/process-tree-usage.ts';
import { seccompMode } from '../../host/channels/runner/runner-seccomp.ts';
import { runtimeFiles } from '../../host/channels/runner/runtime-files.ts';
import { SECCOMP_FD } from '../../host/channels/runner/seccomp/seccomp-fd.ts';
import { seccompFilter } from '../../host/channels/runner/seccomp/seccomp-filter.ts';
import { attack, channelSettings, HOSTILE_PACKAGE, startChannel, type Channel } from './hostile-runner.ts';

/** The runner's processes, bubblewrap's first: bubblewrap → Node (the sandbox's first process). */
function runnerProcesses(channel: Channel): { bubblewrap: number; inside: number[]; node: number } {
  const pid = channel.status().pid;
  assert.ok(pid !== undefined, 'the runner has a pid');
  const [bubblewrap, ...inside] = processTreeUsage(pid)!.pids;
  const node = inside.find((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0')[0] === runtimeFiles()[0]);
  assert.ok(node !== undefined, "the runner's Node is in its process tree");
  return { bubblewrap: bubblewrap!, inside, node };
}

test("a started runner's Node shows Seccomp: 2 in /proc/<pid>/status, as does anything else inside; bubblewrap itself stays outside", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const { bubblewrap, inside, node } = runnerProcesses(hostile);
  assert.match(readFileSync(`/proc/${node}/status`, 'utf8'), /^Seccomp:\t2$/m);
  assert.deepEqual(inside.map(seccompMode), inside.map(() => 2));
  assert.equal(seccompMode(bubblewrap), 0);
});

test('diagnostics report the filter as /proc shows it, and the tier\'s layers', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const status = hostile.status();
  assert.equal(status.isolation, 'sandbox');
  assert.equal(status.seccomp, true);
  assert.match(status.isolationDetail ?? '', /^bubblewrap, seccomp; landlock: (unavailable|not applied) \(.+\)$/);
});

test('a runner started without the filter (the benchmark only) is reported without it: the report is read, not assumed', async (t) => {
  const hostile = await startUnfiltered(t);
  assert.equal(hostile.status().seccomp, false);
  assert.equal(hostile.status().isolationDetail, 'bubblewrap, seccomp off (benchmark)');
  assert.equal(seccompMode(runnerProcesses(hostile).node), 0);
});

test('under the filter a plugin reads a file with fs.promises (the thread pool) and answers the host', async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const outcome = await attack(hostile, { attack: 'read-file-async', path: `${HOSTILE_PACKAGE}/package.json` });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  assert.match(String(outcome.ok && outcome.value), /bot-channel-hostile/);
  assert.deepEqual(await attack(hostile, { attack: 'echo' }), { ok: true, value: 'alive' });
});

test(`the runner's Node holds no descriptor of the filter: its only sockets are stdout, stderr and the wire (fd ${SECCOMP_FD} was closed before it started)`, async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const { node } = runnerProcesses(hostile);
  const sockets = readdirSync(`/proc/${node}/fd`)
    .filter((fd) => readlinkSync(`/proc/${node}/fd/${fd}`).startsWith('socket:'))
    .map(Number)
    .sort((a, b) => a - b);
  assert.deepEqual(sockets, [1, 2, 3]);
});

test('the probe gives the sandbox tier with the filter it ran under, the one built for this architecture', async () => {
  const isolation = await detectIsolation();
  assert.equal(isolation.tier, 'sandbox', isolation.reason ?? '');
  const filter = seccompFilter(process.arch);
  assert.ok(filter.ok);
  assert.deepEqual(isolation.seccomp, filter.program);
});

test('on an architecture the filter does not know, the probe gives the reduced tier and says why', async () => {
  const isolation = await detectIsolation({ arch: 'riscv64' });
  assert.equal(isolation.tier, 'reduced');
  assert.equal(isolation.reason, 'seccomp filter: architecture riscv64 is not supported');
  assert.equal(isolation.seccomp, undefined);
  assert.match(isolation.detail, /^permission model only; landlock: /);
});

/** The hostile channel in the sandbox with the filter off, as the ingest benchmark starts its second runner. */
async function startUnfiltered(t: TestContext): Promise<Channel> {
  const settings = channelSettings();
  settings.isolation = { ...settings.isolation!, seccomp: false };
  const file = `${HOSTILE_PACKAGE}/dist/index.channel.js`;
  const loaded = await sandboxLoader(settings)({ file, realFile: file, origin: 'package' });
  t.after(() => loaded.close());
  return { ...loaded, logger: settings.logger };
}
