import { AppError } from '../../errors/app-error.ts';
import { findUnreachableDir } from './find-unreachable-dir.ts';
import type { PostgresAccount } from './postgres-account.ts';

/**
 * As root the cluster runs as its own account, which must pass through every folder above its
 * binaries and its data. A checkout under a 0700 parent (any clone in `/root`) would otherwise
 * die in initdb with a bare `EACCES`: this says, before anything is written, which folder stops
 * it and what to do.
 */
export async function checkAccountCanReach(targets: readonly string[], account: PostgresAccount, accountName = 'postgres'): Promise<void> {
  for (const target of targets) {
    const blocked = await findUnreachableDir(target, account);
    if (blocked === undefined) continue;
    throw new AppError(
      'BOT_ERR_DB_PATH_UNREACHABLE',
      `the ${accountName} account cannot reach ${target}: ${blocked} does not let it through; move the checkout or BOT_DATA_DIR elsewhere (e.g. under /srv or /opt), or run chmod o+x ${blocked}`,
    );
  }
}

