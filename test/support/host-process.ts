import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const STOP_TIMEOUT_MS = 30_000;
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface HostProcess {
  /** Base URL the host announced in its "listening" log line. */
  url: string;
  child: ChildProcess;
  /** Everything written to stdout so far (logs and the printed login link). */
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /**
   * SIGKILLs the whole process group at once (npm, the host and whatever they started), so no
   * handler, flush or graceful close runs; resolves once the host can no longer act.
   */
  kill(): Promise<void>;
}

/**
 * Runs `npm start` as a real child process, exactly as a newcomer would, and waits until it logs
 * that it listens and (unless `waitForChannels` is false) that it has discovered its channels.
 * DATABASE_URL is removed unless given, so the embedded path is what runs.
 */
export async function startHostProcess(env: Record<string, string>, timeoutMs = 90_000, waitForChannels = true): Promise<HostProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', BOT_LOG_PRETTY: 'false', ...env };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  delete childEnv.TEST_DATABASE_URL;
  // Its own process group, so a stuck host and its PostgreSQL can be killed together.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await waitForListening(child, () => output, timeoutMs, waitForChannels);
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.kill(signal);
      const timer = setTimeout(() => killGroup(child), STOP_TIMEOUT_MS);
      const [code] = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      const hostPid = Number(/"pid":(\d+)/.exec(output)?.[1]);
      const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve();
      killGroup(child);
      await exited;
      if (hostPid > 0) await waitUntilDead(hostPid);
    },
  };
}

/** npm exits first; the host (its child) is dead once it is gone or a zombie no one has reaped yet. */
async function waitUntilDead(pid: number): Promise<void> {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    // The state follows the parenthesised command name: `123 (node) Z …`.
    if (stat === undefined || /\)\s+[ZX]\s/.test(stat)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} still runs ${STOP_TIMEOUT_MS} ms after SIGKILL`);
}

async function waitForListening(child: ChildProcess, output: () => string, timeoutMs: number, waitForChannels: boolean): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const url = findListeningUrl(output(), waitForChannels);
    if (url) return url;
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  killGroup(child);
  throw new Error(`npm start did not listen within ${timeoutMs} ms:\n${output()}`);
}

/**
 * The host's URL once it listens and has discovered its channels (plugins load in the
 * background after it listens, answering 503 until then; the tests want them serving).
 */
function findListeningUrl(output: string, waitForChannels: boolean): string | undefined {
  let url: string | undefined;
  let discovered = false;
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'bot host listening' && entry.url) url = entry.url;
      if (entry.msg === 'channels discovered') discovered = true;
    } catch {
      // a partial line: read it again once complete
    }
  }
  return discovered || !waitForChannels ? url : undefined;
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}
