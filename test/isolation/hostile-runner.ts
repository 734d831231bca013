/**
 * Shared by the isolation tests (docs/plugin-isolation.md): the hostile channel and its innocent bystander, each
 * started in its own runner as the host starts a package channel, and one webhook per attack.
 * The hostile decode performs the attack its body names and answers with one event whose text
 * is the outcome: `{ ok: true, value }` when the attack got through, `{ ok: false, code }` when
 * it was refused.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, type TestContext } from 'node:test';
import type { ChannelSource, PlainInboundEvent } from '@bot-ai/api';
import { sandboxLoader, type IsolationSettings, type LoadedSandbox, type SandboxSettings } from '../../host/channels/load-channel-in-sandbox.ts';
import type { RunnerLimits } from '../../host/channels/runner/runner-limits.ts';
import { recordingLogger, webhookRequest } from '../channels/builtin-pool/fixture-pool.ts';

export const HOST_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const HOSTILE_ROOT = fileURLToPath(new URL('../fixtures/hostile-root', import.meta.url));
export const HOSTILE_PACKAGE = `${HOSTILE_ROOT}/node_modules/bot-channel-hostile`;
export const BYSTANDER_PACKAGE = `${HOSTILE_ROOT}/node_modules/bot-channel-bystander`;
/** The bystander's secret: no other plugin may read it. */
export const BYSTANDER_SECRET_FILE = `${BYSTANDER_PACKAGE}/secret.txt`;
export const BYSTANDER_SECRET = readFileSync(BYSTANDER_SECRET_FILE, 'utf8').trim();
/** A native addon the plugin can read (it lies among the modules it resolves). */
export const ADDON_FILE = `${HOST_ROOT}/node_modules/@napi-rs/nice-linux-x64-gnu/nice.linux-x64-gnu.node`;

export const SOURCE: ChannelSource = { id: 'source-1', ref: 'ref-1', settings: {}, active: true };

/** Limits that never stop a runner by themselves: the tests of other attacks must not trip them. */
export const RELAXED_LIMITS: RunnerLimits = { maxRssMb: 4_096, maxIdleCpuPercent: 1_000, idleCpuStrikes: 1_000, intervalMs: 100 };

/** Room for a CPU shared by parallel test files: the attacks themselves answer in milliseconds. */
const POOL = { callTimeoutMs: 15_000, startTimeoutMs: 30_000, maxHeapMb: 64, maxThreads: 1, maxQueue: 8, idleTimeoutMs: 60_000 };

export interface StartOptions {
  /** `/nonexistent` gives the `reduced` tier, as on a host without bubblewrap. */
  bwrapPath?: string;
  /**
   * Default `strict`: the attacks are tried on the full sandbox or not at all (some, such as
   * `kill -1`, would reach the machine's other runners in the reduced tier).
   */
  mode?: IsolationSettings['mode'];
  limits?: Partial<RunnerLimits>;
  /** The first restart's backoff; default 100 ms. */
  restartDelayMs?: number;
  /** The host's services for the channel; default a stub (empty download links, no egress). */
  hostServicesFor?: SandboxSettings['hostServicesFor'];
}

export type Channel = LoadedSandbox & { logger: ReturnType<typeof recordingLogger> };

export function channelSettings(options: StartOptions = {}): SandboxSettings & { logger: ReturnType<typeof recordingLogger> } {
  return {
    ...POOL,
    isolation: {
      mode: options.mode ?? 'strict',
      ...(options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath }),
      limits: { ...RELAXED_LIMITS, ...options.limits },
      restartDelay: { initialMs: options.restartDelayMs ?? 100, maxMs: 2_000 },
    },
    hostServicesFor: options.hostServicesFor ?? (() => ({ getAttachmentPublicUrl: async () => '' })),
    logger: recordingLogger(),
  };
}

/** Starts the channel package's runner as the host does, and closes it after the test. */
export async function startChannel(t: TestContext, packageDir: string, options: StartOptions = {}): Promise<Channel> {
  const settings = channelSettings(options);
  const file = `${packageDir}/dist/index.channel.js`;
  const loaded = await sandboxLoader(settings)({ file, realFile: file, origin: 'package' });
  t.after(() => loaded.close());
  return { ...loaded, logger: settings.logger };
}

/** `causeCode`: the code of the error's cause (a host service's failure wraps the host's error). */
export type Outcome = { ok: true; value: unknown } | { ok: false; code: string; causeCode?: string; message: string };

/** One webhook of `source` whose decode performs `body.attack`; resolves with what the plugin reports. */
export async function attack(channel: Channel, body: { attack: string } & Record<string, unknown>, source: ChannelSource = SOURCE): Promise<Outcome> {
  const result = await channel.sandbox.receiveWebhook(webhookRequest(body), source);
  assert.equal(result.outcome, 'accepted', JSON.stringify(result));
  const text = result.outcome === 'accepted' ? textOf(result.events[0]) : undefined;
  assert.ok(typeof text === 'string', 'the hostile decode reports its outcome as one text event');
  return JSON.parse(text) as Outcome;
}

/** The attack was refused: the plugin got an error, and the error's code. */
export function assertRefused(outcome: Outcome, what: string): string {
  assert.equal(outcome.ok, false, `${what} got through: ${JSON.stringify(outcome).slice(0, 500)}`);
  return outcome.ok ? '' : outcome.code;
}

/** The bystander's runner still answers a webhook. */
export async function assertServing(bystander: Channel): Promise<void> {
  const result = await bystander.sandbox.receiveWebhook(webhookRequest({}), SOURCE);
  assert.equal(result.outcome, 'accepted');
  assert.equal(result.outcome === 'accepted' ? textOf(result.events[0]) : undefined, 'still here');
}

function textOf(event: PlainInboundEvent | undefined): unknown {
  return (event?.message?.data as { text?: unknown } | undefined)?.text;
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs` (generous: the CPU is shared). */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether a process of this pid exists (signal 0 probes without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pids of the processes whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A TCP (or abstract Unix socket) listener of the host's that counts the connections it gets. */
export async function countingListener(t: TestContext, address: { port: number; host: string } | { path: string }): Promise<{ connections: () => number; port: number }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.end('hello from the host\n');
  });
  server.listen(address);
  await once(server, 'listening');
  t.after(async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    sockets.forEach((socket) => socket.destroy());
    await closed;
  });
  const bound = server.address();
  return { connections: () => sockets.size, port: typeof bound === 'object' && bound ? bound.port : 0 };
}

/**
 * A marker set in the host's environment while this test file runs (call at its top level):
 * nothing a plugin can see may hold it.
 */
export function markHostEnvironment(): string {
  const marker = randomUUID();
  before(() => {
    process.env.BOT_TEST_MARKER = marker;
  });
  after(() => {
    delete process.env.BOT_TEST_MARKER;
  });
  return marker;
}

/** A data directory as the host keeps one, removed after the test: the folder 755, `secrets.json` 600 holding `secret`. */
export async function dataDirWithSecret(t: TestContext, secret: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-test-data-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await chmod(dir, 0o755);
  await writeFile(path.join(dir, 'secrets.json'), JSON.stringify({ BOT_AUTH_SECRET: secret }), { mode: 0o600 });
  return dir;
}
