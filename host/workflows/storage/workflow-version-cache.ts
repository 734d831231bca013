import { ReadThroughCache, type ReadThroughCacheOptions } from '../../cache/read-through-cache.ts';
import { isUuid } from '../../db/fetch-sorted-page.ts';

/** A workflow's current version, or 'none' when no workflow has the id. */
export type CurrentVersion = number | 'none';

/**
 * Which version of each workflow is current, held in memory so that a claimed inbound event costs
 * no workflow query. Writes through the WorkflowStore forget the workflow here once committed,
 * and other instances hear of them by NOTIFY (a ChangeNoticeSync of WORKFLOW_CHANGES); the TTL only bounds what
 * neither reaches. An id with no workflow is remembered briefly (the miss TTL).
 * @example
 * const versions = new WorkflowVersionCache({ load: (id) => workflows.currentVersion(id), now: Date.now });
 * await versions.currentVersion(id); // one query, then memory
 */
export class WorkflowVersionCache {
  readonly #versions: ReadThroughCache<number>;

  constructor(options: ReadThroughCacheOptions<number>) {
    this.#versions = new ReadThroughCache(options);
  }

  /**
   * The current version of the workflow with this id. An id that is not a UUID (a webhook URL
   * names the workflow, so it can be anything) names no workflow and costs no query.
   */
  async currentVersion(workflowId: string): Promise<CurrentVersion> {
    if (!isUuid(workflowId)) return 'none';
    return (await this.#versions.get(canonical(workflowId))) ?? 'none';
  }

  /** Drops what is known of the workflow: the next lookup reads the database. */
  forget(workflowId: string): void {
    this.#versions.forget(canonical(workflowId));
  }

  /** Drops everything (the change listener lost notices). */
  clear(): void {
    this.#versions.clear();
  }
}

/** A URL may spell a UUID in capitals; notices name the workflow as the database spells it. */
function canonical(workflowId: string): string {
  return workflowId.toLowerCase();
}
