/**
 * Runs child-host.ts (a host of its own, in a child process) with the attacks given, and reads
 * what it printed: for the attacks that aim at the host process itself, or need a host started
 * in a way a test process cannot be (through a shell holding a descriptor open, say).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { HOST_ROOT } from './hostile-runner.ts';

const CHILD_HOST = fileURLToPath(new URL('./child-host.ts', import.meta.url));

export interface ChildHostReport {
  exitCode: number | null;
  /** The JSON lines it printed: one per attack, then `{ alive, baselineRssMb, peakRssMb }`. */
  lines: Array<Record<string, unknown>>;
  stderr: string;
}

/**
 * `wrap` turns the host's command (Node and its arguments) into the one to spawn; default as is.
 * @example await runChildHost(t, [{ attack: 'echo' }], (command) => ['bash', ['-c', 'exec "$@"', 'bash', ...command]]);
 */
export async function runChildHost(
  t: TestContext,
  attacks: Array<Record<string, unknown>>,
  wrap: (command: string[]) => [string, string[]] = ([node, ...args]) => [node!, args],
): Promise<ChildHostReport> {
  const [command, args] = wrap([process.execPath, '--import', 'tsx', CHILD_HOST, JSON.stringify(attacks)]);
  const child = spawn(command, args, { cwd: HOST_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4_000)));
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const lines = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { exitCode, lines, stderr };
}
