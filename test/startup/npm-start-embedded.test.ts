import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';

// This file proves the embedded default: `npm start` with no DATABASE_URL at all.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-start-'));
await chmod(dataDir, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must enter it
after(() => rm(dataDir, { recursive: true, force: true }));

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any }); // eslint-disable-line @typescript-eslint/no-explicit-any

/** npm's own exit status after a forwarded signal varies by version; the host's log does not. */
function assertStoppedCleanly(output: string): void {
  assert.match(output, /"msg":"bot host stopped"/, output);
  assert.doesNotMatch(output, /error while shutting down/, output);
}

test('npm start on a fresh data directory, then again on the same data, keeps state and secrets', async () => {
  const first = await startHostProcess({ BOT_DATA_DIR: dataDir });
  let token: string;
  try {
    assert.equal((await fetch(`${first.url}/health/ready`)).status, 200);
    const code = /\/login#code=([\w-]+)/.exec(first.output())?.[1];
    assert.ok(code, `no login link in:\n${first.output()}`);
    const login = await json(await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    }));
    assert.equal(login.status, 200);
    token = login.body.token;
    const created = await fetch(`${first.url}/api/memory-definitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Customer Profile',
        scope: 'global',
        schema: { type: 'object', properties: { name: { type: 'string', description: 'Name' } } },
      }),
    });
    assert.equal(created.status, 201);
    // The first start seeded the examples; one deleted now must stay deleted.
    const workflows = await json(await fetch(`${first.url}/api/workflows?sort=name`, { headers: { authorization: `Bearer ${token}` } }));
    assert.deepEqual(workflows.body.items.map((item: { name: string }) => item.name), ['AI reply', 'Greeting']);
    const aiReply = workflows.body.items.find((item: { name: string }) => item.name === 'AI reply');
    assert.equal((await fetch(`${first.url}/api/workflows/${aiReply.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status, 204);
  } finally {
    await first.stop('SIGTERM');
  }
  assertStoppedCleanly(first.output());
  assert.ok(!existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid')), 'embedded PostgreSQL still running');

  const second = await startHostProcess({ BOT_DATA_DIR: dataDir });
  try {
    assert.equal((await fetch(`${second.url}/health/ready`)).status, 200);
    const list = await json(await fetch(`${second.url}/api/memory-definitions`, { headers: { authorization: `Bearer ${token}` } }));
    assert.equal(list.status, 200, 'a token from the first run still works: the secret was persisted');
    assert.deepEqual(list.body.items.map((item: { slug: string }) => item.slug).sort(), ['customer_profile', 'profile']);
    const workflows = await json(await fetch(`${second.url}/api/workflows`, { headers: { authorization: `Bearer ${token}` } }));
    assert.deepEqual(workflows.body.items.map((item: { name: string }) => item.name), ['Greeting'], 'seeded once, not again');
  } finally {
    await second.stop('SIGINT');
  }
  assertStoppedCleanly(second.output());
});

test('a host killed with SIGKILL leaves its PostgreSQL behind, and the next start takes the cluster over', async () => {
  const crashed = await startHostProcess({ BOT_DATA_DIR: dataDir });
  const hostPid = Number(/"pid":(\d+)/.exec(crashed.output())?.[1]);
  assert.ok(hostPid > 0);
  process.kill(hostPid, 'SIGKILL');
  await crashed.stop('SIGTERM');
  assert.ok(existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid')), 'the orphaned PostgreSQL should still run');

  const restarted = await startHostProcess({ BOT_DATA_DIR: dataDir });
  try {
    assert.equal((await fetch(`${restarted.url}/health/ready`)).status, 200);
  } finally {
    await restarted.stop('SIGTERM');
  }
  assertStoppedCleanly(restarted.output());
  assert.ok(!existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid')));
});
