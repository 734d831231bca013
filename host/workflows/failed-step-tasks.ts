import type { Knex } from 'knex';

/**
 * The task of each failed run's failing step (its last failed step), by run id, in one
 * statement through the steps' primary key: a run's error is the error of that step, and the
 * plain sentence names it.
 * @example const tasks = await failedStepTasks(db, page.items.filter((run) => run.error).map((run) => run.id));
 */
export async function failedStepTasks(db: Knex, runIds: readonly string[]): Promise<Map<string, string>> {
  if (runIds.length === 0) return new Map();
  const rows: { run_id: string; task: string }[] = await db('workflow_run_steps')
    .distinctOn('run_id')
    .whereIn('run_id', [...new Set(runIds)])
    .where({ status: 'failed' })
    .orderBy([{ column: 'run_id' }, { column: 'position', order: 'desc' }])
    .select('run_id', 'task');
  return new Map(rows.map((row) => [row.run_id, row.task]));
}
