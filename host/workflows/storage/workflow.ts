import { z } from 'zod';
import type { WorkflowDocument } from '../document/workflow-document.ts';

/** A row of `workflows`. */
export interface WorkflowRow {
  id: string;
  name: string;
  current_version: number;
  created_at: Date;
  updated_at: Date;
}

/** A row of `workflow_versions`; never updated once written. */
export interface WorkflowVersionRow {
  workflow_id: string;
  version: number;
  yaml: string;
  document: WorkflowDocument;
  memory_definition_ids: string[];
  created_at: Date;
  created_by: string | null;
}

const workflowFields = {
  id: z.uuid(),
  name: z.string(),
  version: z.number().int().describe('The version shown: the current one unless ?version= asked for another'),
  currentVersion: z.number().int().describe('The version runs use: the latest save'),
  createdAt: z.string(),
  updatedAt: z.string().describe('When the latest version was saved (or the workflow renamed)'),
};

/** A workflow as the admin API returns it: one version's YAML, exactly as it was saved. */
export const workflowViewSchema = z.object({ ...workflowFields, yaml: z.string() });
export type WorkflowView = z.infer<typeof workflowViewSchema>;

/** A workflow in a list: its current version, without the YAML. */
export const workflowSummarySchema = z.object({ ...workflowFields, version: workflowFields.version.describe('The current version') }).omit({ currentVersion: true });
export type WorkflowSummary = z.infer<typeof workflowSummarySchema>;

/** A version in the versions list: who saved it, when. */
export const workflowVersionSummarySchema = z.object({
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string().nullable().describe('The `sub` of the token that saved it'),
});
export type WorkflowVersionSummary = z.infer<typeof workflowVersionSummarySchema>;

/** A version as the runtime loads it: the parsed document. */
export interface LoadedWorkflowVersion {
  workflowId: string;
  name: string;
  version: number;
  document: WorkflowDocument;
}

/** A workflow row as a list item. */
export function toSummary(row: WorkflowRow): WorkflowSummary {
  return { id: row.id, name: row.name, version: row.current_version, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

/** A workflow row with one of its versions, as the API returns it. */
export function toView(row: WorkflowRow, version: Pick<WorkflowVersionRow, 'version' | 'yaml'>): WorkflowView {
  return { ...toSummary(row), version: version.version, currentVersion: row.current_version, yaml: version.yaml };
}

/** A version row as the versions list shows it. */
export function toVersionSummary(row: Pick<WorkflowVersionRow, 'version' | 'created_at' | 'created_by'>): WorkflowVersionSummary {
  return { version: row.version, createdAt: row.created_at.toISOString(), createdBy: row.created_by };
}
