import type { Knex } from 'knex';
import type { InboundEventProcessorDeps } from '../../host/dispatch/inbound-event-processor.ts';
import { SourceCache } from '../../host/sources/source-cache.ts';
import type { SourceRow } from '../../host/sources/source.ts';
import { WorkflowVersionCache } from '../../host/workflows/storage/workflow-version-cache.ts';

/**
 * The caches an InboundEventProcessor resolves an event's source and workflow version through,
 * read straight from the tables, for tests that build a processor by hand. Each call makes new,
 * empty caches: a test that changes a source or workflow in SQL makes new ones after.
 */
export function runLookups(db: Knex): Pick<InboundEventProcessorDeps, 'sources' | 'workflowVersions'> {
  const source = (column: 'id' | 'ref') => async (value: string) => db<SourceRow>('sources').where(column, value).first();
  return {
    sources: new SourceCache({ load: source('ref'), loadById: source('id'), now: Date.now }),
    workflowVersions: new WorkflowVersionCache({
      load: async (id) => (await db('workflows').where({ id }).first('current_version'))?.current_version,
      now: Date.now,
    }),
  };
}
