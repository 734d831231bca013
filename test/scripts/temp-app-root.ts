/** Shared by the scaffold tests: a throw-away app root, the script run as a child, discovery over the root. */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, type TestContext } from 'node:test';
import { directFetchService, type WebhookRequest } from '@bot-ai/api';
import pino from 'pino';
import { discoverChannels } from '../../host/channels/discover-channels.ts';
import type { DiscoveryResult } from '../../host/channels/discovery/discovered-channel.ts';
import { readHostProvidedVersions } from '../../host/channels/discovery/host-provided-versions.ts';
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import type { ChannelCalls } from '../../host/channels/calls/channel-calls.ts';

export const HOST_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a scaffolded channel imports or compiles against, as an installed host would hold it. */
const LINKED_PACKAGES = ['@bot-ai/api', '@bot-ai/types', 'zod', '@nestjs/common', '@types/node'];

/**
 * A fresh app root holding only `node_modules` links to this repo's packages (no package.json,
 * no tsconfig), removed after the test or suite.
 */
export async function createTempAppRoot(cleanup: Cleanup): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'bot-new-channel-'));
  // Readable by others, as an installed app is: a host running as root runs plugins as nobody.
  await chmod(root, 0o755);
  cleanup(() => rm(root, { recursive: true, force: true }));
  for (const name of LINKED_PACKAGES) {
    const link = path.join(root, 'node_modules', name);
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(path.join(HOST_ROOT, 'node_modules', name), link, 'junction');
  }
  return root;
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run new:channel -- <args>` as the command does: tsx on the script, stdin closed. */
export function runNewChannel(...args: string[]): Promise<ScriptRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/new-channel.ts', ...args], {
    cwd: HOST_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Discovery exactly as the host runs it (scan, manifest, peers, load in a worker), closed after. */
export async function discoverIn(appRoot: string, cleanup: Cleanup): Promise<DiscoveryResult<ChannelCalls>[]> {
  const load = sandboxLoader({
    callTimeoutMs: 5_000,
    maxHeapMb: 64,
    maxThreads: 1,
    maxQueue: 10,
    idleTimeoutMs: 1_000,
    // Sends go straight out: these tests are about the scaffold, the egress rules have their own.
    hostServicesFor: () => ({ getAttachmentPublicUrl: async () => 'https://host.test/download', fetch: directFetchService }),
    logger: pino({ level: 'silent' }),
  });
  const results = await discoverChannels({ appRoot, providedVersions: readHostProvidedVersions(HOST_ROOT), load });
  cleanup(async () => void (await Promise.all(results.map((result) => result.loaded?.close()))));
  return results;
}

/** A webhook POST of `body` signed as the template expects: hex HMAC-SHA256 in `X-Signature`. */
export function signedRequest(body: unknown, secret: string): WebhookRequest {
  const rawBody = Buffer.from(JSON.stringify(body));
  const signature = createHmac('sha256', secret).update(rawBody).digest('hex');
  return { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signature }, query: {}, params: {}, body, rawBody };
}

/** Every file under `root` outside node_modules, with its content: to prove nothing was written. */
export async function snapshotFiles(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !path.relative(root, entry.parentPath).split(path.sep).includes('node_modules'));
  const pairs = await Promise.all(files.map(async (entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return [path.relative(root, file), await readFile(file, 'utf8')] as const;
  }));
  return Object.fromEntries(pairs.sort(([a], [b]) => a.localeCompare(b)));
}

export type Cleanup = (fn: () => Promise<void>) => void;

/** Cleanup at the end of one test. */
export const afterTest = (t: TestContext): Cleanup => (fn) => t.after(fn);

/**
 * Cleanup at the end of a suite; call it in the `describe` body (an `after` registered inside a
 * `before` hook would run as soon as the hook ends). Runs in reverse order of registration.
 */
export function afterSuite(): Cleanup {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const fn of cleanups.reverse()) await fn();
  });
  return (fn) => void cleanups.push(fn);
}
