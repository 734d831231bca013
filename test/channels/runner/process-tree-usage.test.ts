import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { processTreeUsage } from '../../../host/channels/runner/process-tree-usage.ts';

const SPAWN_CHILD = fileURLToPath(new URL('../../fixtures/process-tree/spawn-child.mjs', import.meta.url));

/** Starts the fixture; resolves with its pid and the pid of the child it started from `thread`. */
async function startTree(t: TestContext, thread: 'main' | 'worker'): Promise<{ root: number; child: number }> {
  const root = spawn(process.execPath, [SPAWN_CHILD, thread], { stdio: ['ignore', 'pipe', 'inherit'] });
  let child = 0;
  t.after(() => {
    if (child) process.kill(child, 'SIGKILL');
    root.kill('SIGKILL');
  });
  const [line] = (await once(root.stdout, 'data')) as [Buffer];
  child = Number(String(line).trim());
  assert.ok(child > 0, `the fixture printed a pid: ${line}`);
  return { root: root.pid!, child };
}

for (const thread of ['main', 'worker'] as const) {
  test(`counts a process started from the ${thread} thread`, async (t) => {
    const { root, child } = await startTree(t, thread);
    const usage = processTreeUsage(root);
    assert.ok(usage, 'the root is alive');
    assert.deepEqual(usage.pids, [root, child]);
    assert.ok(usage.rssBytes > 0);
  });
}

test('answers undefined once the root process is gone', async () => {
  const root = spawn('true');
  await once(root, 'exit');
  assert.equal(processTreeUsage(root.pid!), undefined);
});
