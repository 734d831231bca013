import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';

// A terminal's Ctrl-C signals the whole foreground process group: npm, the host and, were it in
// that group, the embedded PostgreSQL, which would then shut down beneath the host's connections.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-ctrl-c-'));
after(() => rm(dataDir, { recursive: true, force: true }));

/** pino levels: 40 is warn, 50 error, 60 fatal. Lines that are not JSON are PostgreSQL's or npm's own. */
function linesAfter(output: string, marker: number): { lines: string[]; loud: string[] } {
  const lines = output.slice(marker).split('\n').filter((line) => line.trim() !== '');
  const loud = lines.filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 40;
    } catch {
      return /WARN|ERROR|FATAL|terminating connection/i.test(line);
    }
  });
  return { lines, loud };
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} to the whole process group stops the host and its PostgreSQL in order, quietly, with exit code 0`, async () => {
    const host = await startHostProcess({ BOT_DATA_DIR: dataDir });
    const marker = host.output().length;
    const exited = once(host.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    process.kill(-host.child.pid!, signal);
    const [code, killedBy] = await exited;

    const { lines, loud } = linesAfter(host.output(), marker);
    const after = lines.join('\n');
    assert.deepEqual([code, killedBy], [0, null], after);
    assert.match(after, /"msg":"bot host stopped"/);
    assert.ok(lines.length < 30, `${lines.length} lines after ${signal}:\n${after}`);
    assert.deepEqual(loud, []);
    assert.ok(!existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid')), 'the embedded PostgreSQL still runs');
    assert.ok(!existsSync(path.join(dataDir, 'postgres', 'host.lock')), 'the data directory lock was not released');
  });
}

test('SIGINT to the whole process group reaches no channel runner either', async () => {
  const host = await startHostProcess({ BOT_DATA_DIR: dataDir });
  const marker = host.output().length;
  const exited = once(host.child, 'exit');
  process.kill(-host.child.pid!, 'SIGINT');
  await exited;
  assert.deepEqual(linesAfter(host.output(), marker).loud, []);
});
