import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { findFreePort } from '../../host/db/embedded-postgres.ts';
import { startHostProcess } from '../support/host-process.ts';

// This file proves the embedded default: `npm start` with no DATABASE_URL at all. The data
// directory is mkdtemp's (0700): as root, the host itself lets the cluster's account through.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-start-'));
after(() => rm(dataDir, { recursive: true, force: true }));

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any }); // eslint-disable-line @typescript-eslint/no-explicit-any

/** npm's own exit status after a forwarded signal varies by version; the host's log does not. */
function assertStoppedCleanly(output: string): void {
  assert.match(output, /"msg":"bot host stopped"/, output);
  assert.doesNotMatch(output, /error while shutting down/, output);
}

/** The roles the running host's connections log in as, asked as the cluster's superuser. */
async function hostRoles(port: number): Promise<Array<{ role: string; superuser: boolean }>> {
  const password = await readFile(path.join(dataDir, 'postgres', 'password'), 'utf8');
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    const { rows } = await client.query<{ role: string; superuser: boolean }>(`
      SELECT DISTINCT a.usename AS role, r.rolsuper AS superuser
      FROM pg_stat_activity a JOIN pg_roles r ON r.oid = a.usesysid WHERE a.application_name = 'bot-host'`);
    return rows;
  } finally {
    await client.end();
  }
}

test('npm start on a fresh data directory, then again on the same data, keeps state and secrets', async () => {
  const databasePort = await findFreePort();
  const first = await startHostProcess({ BOT_DATA_DIR: dataDir, BOT_DB_EMBEDDED_PORT: String(databasePort) });
  let token: string;
  try {
    assert.equal((await fetch(`${first.url}/health/ready`)).status, 200);
    assert.deepEqual(await hostRoles(databasePort), [{ role: 'bot_app', superuser: false }], 'the host connects as the application role');
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
  // Private to the host (as root, enterable by the cluster's account group), passwords 0600.
  const privateDirMode = process.getuid?.() === 0 ? 0o710 : 0o700;
  const modeOf = async (file: string) => (await stat(path.join(dataDir, file))).mode & 0o7777;
  assert.deepEqual(
    [await modeOf('.'), await modeOf('postgres'), await modeOf('postgres/password'), await modeOf('postgres/app-password')],
    [privateDirMode, privateDirMode, 0o600, 0o600],
  );

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

/** The pid in the first line of the cluster's postmaster.pid, once PostgreSQL runs. */
async function postmasterPid(): Promise<number> {
  return Number((await readFile(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

async function waitUntilStopped(file: string, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; existsSync(file); ) {
    assert.ok(Date.now() < deadline, `${file} still there after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a host killed with SIGKILL takes its PostgreSQL down with it, and the next start takes its lock over', async () => {
  const crashed = await startHostProcess({ BOT_DATA_DIR: dataDir });
  const hostPid = Number(/"pid":(\d+)/.exec(crashed.output())?.[1]);
  assert.ok(hostPid > 0);
  process.kill(hostPid, 'SIGKILL');
  await crashed.stop('SIGTERM');
  // PostgreSQL runs in a process group of its own; its watchdog shell sees the host's pipe close.
  await waitUntilStopped(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'), 30_000);
  assert.ok(existsSync(path.join(dataDir, 'postgres', 'host.lock')), 'the lock of the dead host is left for the next start');

  const restarted = await startHostProcess({ BOT_DATA_DIR: dataDir });
  try {
    assert.equal((await fetch(`${restarted.url}/health/ready`)).status, 200);
  } finally {
    await restarted.stop('SIGTERM');
  }
  assertStoppedCleanly(restarted.output());
});

test('a PostgreSQL orphaned with its watchdog killed too is stopped by the next start, which takes the cluster over', async () => {
  const crashed = await startHostProcess({ BOT_DATA_DIR: dataDir });
  const hostPid = Number(/"pid":(\d+)/.exec(crashed.output())?.[1]);
  const postgresPid = await postmasterPid();
  // Field 4 of /proc/<pid>/stat, after the parenthesised name: the parent, here the watchdog shell.
  const watchdogPid = Number((await readFile(`/proc/${postgresPid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[1]);
  // Its other child is the reader that waits on the host's pipe: the watchdog's other half.
  const watchdogChildren = (await readFile(`/proc/${watchdogPid}/task/${watchdogPid}/children`, 'utf8')).trim().split(' ').map(Number);
  // The reader first: once the watchdog is gone, the host closes its end of the pipe, and a
  // reader still alive for that moment (a busy machine) would ask PostgreSQL to shut down.
  for (const pid of [...watchdogChildren.filter((pid) => pid !== postgresPid), watchdogPid]) process.kill(pid, 'SIGKILL');
  process.kill(hostPid, 'SIGKILL');
  await crashed.stop('SIGTERM');
  assert.equal(await postmasterPid(), postgresPid, 'the orphaned PostgreSQL should still run');

  const restarted = await startHostProcess({ BOT_DATA_DIR: dataDir });
  try {
    assert.match(restarted.output(), /stopping an orphaned embedded postgres/);
    assert.equal((await fetch(`${restarted.url}/health/ready`)).status, 200);
  } finally {
    await restarted.stop('SIGTERM');
  }
  assertStoppedCleanly(restarted.output());
  assert.ok(!existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid')));
});
