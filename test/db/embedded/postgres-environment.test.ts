import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startEmbeddedPostgres } from '../../../host/db/embedded-postgres.ts';

const root = await mkdtemp(path.join(tmpdir(), 'bot-embedded-env-'));
// As root the cluster runs under an account of its own, which must pass through this folder.
await chmod(root, 0o755);
after(() => rm(root, { recursive: true, force: true }));

const SECRETS = { BOT_AUTH_SECRET: 'auth-secret-never-in-postgres-0123456789', BOT_AI_API_KEY_GROQ: 'gsk-never-in-postgres' };

/** NAME=value pairs of a running process's environment, as the kernel keeps it. */
async function environmentOf(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0').filter(Boolean);
}

async function parentOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

test("the embedded PostgreSQL and its watchdog get none of the host's secrets from its environment", async () => {
  Object.assign(process.env, SECRETS);
  const dir = path.join(root, 'cluster');
  const server = await startEmbeddedPostgres({ dir, port: 0 });
  try {
    const postmaster = Number((await readFile(path.join(dir, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const watchdog = await parentOf(postmaster);
    for (const pid of [postmaster, watchdog]) {
      const environment = await environmentOf(pid);
      assert.ok(environment.includes('LC_MESSAGES=C'), `pid ${pid}: ${environment.join(' ')}`);
      assert.ok(environment.some((entry) => entry.startsWith('PATH=')));
      for (const [name, value] of Object.entries(SECRETS)) {
        assert.ok(!environment.some((entry) => entry.startsWith(`${name}=`) || entry.includes(value)), `pid ${pid} holds ${name}`);
      }
    }
  } finally {
    for (const name of Object.keys(SECRETS)) delete process.env[name];
    await server.stop();
  }
});
