import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startHostProcess } from '../support/host-process.ts';

// The README's first-bot path, run as written: only the ports differ, since the machine is
// shared (the platform's through BOT_SAMPLE_PLATFORM_URL, which the seed and the script both read).
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Generous: the machine is shared, and each `npm run` starts tsx afresh.
const DEADLINE_MS = 60_000;

const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-readme-first-bot-'));
await chmod(dataDir, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must enter it
after(() => rm(dataDir, { recursive: true, force: true }));

/** The Quick start section's shell lines (comments dropped) and the reply it promises. */
async function readQuickStart(): Promise<{ commands: string[]; promisedReply: string }> {
  const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = /^## Quick start\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  assert.ok(section, 'README has no "## Quick start" section');
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const commands = blocks.flatMap((block) => block.split('\n')).map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const promisedReply = /prints `(reply to [^`]+)`/.exec(section)?.[1];
  assert.ok(promisedReply, 'the Quick start no longer says which reply the sample platform prints');
  return { commands, promisedReply };
}

function commandRunning(commands: string[], script: RegExp): string {
  const line = commands.find((command) => script.test(command));
  assert.ok(line, `the Quick start has no command matching ${script}:\n${commands.join('\n')}`);
  return line;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** A README line run by a shell, in a process group of its own so it can be stopped whole. */
function runLine(line: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn('sh', ['-c', line], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function waitFor(what: string, found: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!found()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${DEADLINE_MS} ms; output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
}

test("the README's Quick start commands, run as written, end with the sample platform printing the bot's reply", async () => {
  const { commands, promisedReply } = await readQuickStart();
  assert.ok(commandRunning(commands, /\bnpm start\b/), 'the host is started with npm start');
  const platformLine = commandRunning(commands, /^npm run sample:platform\b/);
  const sendLine = commandRunning(commands, /^npm run sample:send\b/);
  const platformEnv = { BOT_SAMPLE_PLATFORM_URL: `http://127.0.0.1:${await freePort()}` };

  const host = await startHostProcess({ BOT_DATA_DIR: dataDir, ...platformEnv });
  const platform = runLine(platformLine, platformEnv);
  try {
    await waitFor('npm start printed no sample:send command', () => host.output().includes('npm run sample:send'), host.output);
    await waitFor('the sample platform did not listen', () => platform.output().includes('sample platform listening'), platform.output);
    const send = runLine(`${sendLine} --url ${host.url}`, {});
    const [code] = (await once(send.child, 'exit')) as [number | null];
    assert.equal(code, 0, `sample:send failed:\n${send.output()}`);
    assert.match(send.output(), /HTTP 200: accepted/);
    await waitFor(`the sample platform did not print "${promisedReply}"`, () => platform.output().includes(promisedReply), () => `${platform.output()}\n--- host:\n${host.output()}`);
  } finally {
    stopGroup(platform.child);
    await host.stop('SIGTERM');
  }
});
