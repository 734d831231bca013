import type { Knex } from 'knex';
import { z } from 'zod';
import { migrationsApplied } from '../db/migration-source.ts';
import { AppError } from '../errors/app-error.ts';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import type { StartupReadiness } from './startup-readiness.ts';

const status = z.object({ status: z.string() });

export function healthRoutes(deps: { db: Knex; readiness: StartupReadiness }): RouteDefinition[] {
  // Migrations never un-apply while the host runs: once seen complete, only reachability is checked.
  let migrated = false;
  const checkReady = async () => {
    if (!migrated) migrated = await migrationsApplied(deps.db);
    else await deps.db.raw('select 1');
    return migrated;
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/health/live',
      operationId: 'live',
      summary: 'The process is up and serving HTTP',
      tag: 'health',
      permission: null,
      success: { status: 200, description: 'Alive', schema: status },
      handle: () => ({ status: 'live' }),
    }),
    defineRoute({
      method: 'GET',
      path: '/health/ready',
      operationId: 'ready',
      summary: 'The database is reachable, every migration is applied, and every enabled channel is loaded or rejected (or its start timed out)',
      tag: 'health',
      permission: null,
      success: { status: 200, description: 'Ready for traffic', schema: status },
      errors: [503],
      async handle() {
        const ready = await checkReady().catch((error: unknown) => {
          throw new AppError('BOT_ERR_HEALTH_NOT_READY', 'The database is unreachable', undefined, { cause: error });
        });
        if (!ready) throw new AppError('BOT_ERR_HEALTH_NOT_READY', 'Database migrations are pending');
        const pending = deps.readiness.pending();
        if (pending.length > 0) throw new AppError('BOT_ERR_HEALTH_NOT_READY', `Still starting: ${pending.join(', ')}`);
        return { status: 'ready' };
      },
    }),
  ];
}
