import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';
import { createTestDatabase } from '../support/test-database.ts';

// SIGUSR1 opens Node's inspector, through which anyone who may signal the host runs code in it;
// the host starts with --disable-sigusr1 so the signal does nothing.
const database = await createTestDatabase({ migrate: false });
const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-sigusr1-'));
after(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** TCP ports a process listens on: its socket inodes matched against the kernel's table. */
async function listeningPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    const rows = (await readFile(`/proc/${pid}/net/${table}`, 'utf8')).trim().split('\n').slice(1);
    for (const columns of rows.map((row) => row.trim().split(/\s+/))) {
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is column 10.
      if (columns[3] === '0A' && inodes.has(columns[9]!)) ports.add(parseInt(columns[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

test('the host ignores SIGUSR1: it keeps running and opens no inspector port', async () => {
  const host = await startHostProcess({
    DATABASE_URL: database.url,
    BOT_DATA_DIR: dataDir,
    BOT_AUTH_SECRET: 'sigusr1-test-auth-secret-0123456789abcdef-01',
    BOT_DOWNLOAD_SECRET: 'sigusr1-test-download-secret-0123456789abcdef',
  });
  try {
    const hostPid = Number(/"pid":(\d+)/.exec(host.output())?.[1]);
    assert.ok(hostPid > 0, host.output());
    const before = await listeningPorts(hostPid);
    process.kill(hostPid, 'SIGUSR1');
    await pause(1_000);
    assert.equal(host.child.exitCode, null, 'still running');
    assert.equal((await fetch(`${host.url}/health/live`)).status, 200);
    assert.deepEqual(await listeningPorts(hostPid), before, 'no new listening socket');
    assert.doesNotMatch(host.output(), /Debugger listening/);
  } finally {
    await host.stop('SIGTERM');
  }
});

test('the same check sees the inspector a node without --disable-sigusr1 opens on SIGUSR1', async () => {
  // --inspect-port=0: the inspector takes a free port rather than 9229, which may be in use.
  const child = spawn(process.execPath, ['--inspect-port=0', '-e', 'setTimeout(() => {}, 30_000)'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await pause(300);
    const before = await listeningPorts(child.pid!);
    child.kill('SIGUSR1');
    for (const deadline = Date.now() + 10_000; !stderr.includes('Debugger listening') && Date.now() < deadline; ) await pause(20);
    assert.equal((await listeningPorts(child.pid!)).length, before.length + 1);
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
});
