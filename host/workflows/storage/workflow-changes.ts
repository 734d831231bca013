import type { ChangeNoticeKind } from '../../db/change-notice-sync.ts';

/**
 * Writes to workflows, as host instances tell each other of them (ChangeNoticeSync keeps every
 * instance's WorkflowVersionCache in step with the workflows table): each creation, save and
 * deletion through the WorkflowStore sends `{ id, from }` on `bot_workflow_changes` in its own
 * transaction and drops this instance's copy once committed; other instances drop theirs on the
 * notice.
 * @example
 * const sync = new ChangeNoticeSync(WORKFLOW_CHANGES, { db, cache: workflowVersions, instanceId, logger });
 * const workflows = new WorkflowStore(db, definitions, { now, changes: sync });
 * await sync.start(); // other instances' writes reach `workflowVersions` from now on
 */
export const WORKFLOW_CHANGES: ChangeNoticeKind = { channel: 'bot_workflow_changes', label: 'workflow change', keyField: 'id' };
