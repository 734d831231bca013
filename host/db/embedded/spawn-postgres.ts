import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.ts';
import type { PostgresAccount } from './postgres-account.ts';
import { postgresEnvironment } from './postgres-environment.ts';

export interface PostgresServerOptions {
  postgres: string;
  dataDir: string;
  port: number;
  flags: readonly string[];
  account?: PostgresAccount;
  logger?: Pick<Logger, 'debug'>;
}

export interface PostgresServer {
  /** Fast shutdown (SIGINT: sessions are ended, the cluster is left consistent); resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Runs `postgres` under a tiny shell that ties it to the host: the shell holds the read end of a
 * pipe whose write end only the host has, and asks PostgreSQL for a fast shutdown when it reads
 * end-of-file — when the host stops it, and also when the host dies without a word (SIGKILL).
 * `$@` is the postgres command line; stdin is the pipe, kept on fd 3 because a background
 * command's stdin is /dev/null in a shell without job control.
 */
const WATCHDOG = `exec 3<&0
"$@" </dev/null &
pg=$!
(read -r _ <&3; kill -INT "$pg" 2>/dev/null) &
reader=$!
wait "$pg"
status=$?
kill "$reader" 2>/dev/null
exit "$status"`;

const READY = 'database system is ready to accept connections';

/**
 * Starts PostgreSQL in a process group of its own (`detached`): a terminal's Ctrl-C (SIGINT to
 * the whole foreground group) or a SIGTERM to the host's group reaches the host alone, which then
 * stops its database last, in order, instead of having it shut down beneath open connections.
 * Resolves once the server accepts connections; rejects, with its last words, if it exits first.
 */
export async function spawnPostgres(options: PostgresServerOptions): Promise<PostgresServer> {
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'postgres-watchdog', options.postgres, '-D', options.dataDir, '-p', String(options.port), ...options.flags], {
    detached: true,
    stdio: ['pipe', 'ignore', 'pipe'],
    ...(options.account ? { uid: options.account.uid, gid: options.account.gid } : {}),
    env: postgresEnvironment(),
  });
  const exited = once(child, 'exit');
  await waitUntilReady(child, exited, options);
  return { stop: () => stopServer(child, exited) };
}

async function waitUntilReady(child: ChildProcess, exited: Promise<unknown[]>, options: PostgresServerOptions): Promise<void> {
  const lines: string[] = [];
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      options.logger?.debug({ postgres: line }, 'embedded postgres');
      lines.push(line);
      if (lines.length > 20) lines.shift();
      if (line.includes(READY)) resolve();
    });
  });
  const failed = exited.then(([code]) => {
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `The embedded PostgreSQL in ${options.dataDir} exited while starting (code ${String(code)}): ${lines.slice(-3).join(' | ')}`);
  });
  await Promise.race([ready, failed]);
  failed.catch(() => undefined); // exits later are stop()'s business
}

/** Closing the pipe is the stop signal (see WATCHDOG); once is enough. */
async function stopServer(child: ChildProcess, exited: Promise<unknown[]>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.stdin!.end();
  await exited;
}
