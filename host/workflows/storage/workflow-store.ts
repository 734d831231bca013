import type { Knex } from 'knex';
import { writeAndNotify, type ChangeListener } from '../../db/change-notice-sync.ts';
import { fetchSortedPage, isUuid } from '../../db/fetch-sorted-page.ts';
import { AppError } from '../../errors/app-error.ts';
import { PG_UNIQUE_VIOLATION, pgConstraint, pgErrorCode } from '../../errors/postgres-errors.ts';
import { likePattern, type Page } from '../../http/list-query.ts';
import type { MemoryDefinitionStore } from '../../memory/definitions/memory-definition-store.ts';
import { boundDefinitionIds } from '../document/bound-definition-ids.ts';
import type { MemoryDefinitionLookup } from '../document/check-memory-references.ts';
import { validateWorkflowYaml, type WorkflowValidation } from '../document/validate-workflow.ts';
import type { WorkflowDocument } from '../document/workflow-document.ts';
import type { WorkflowProblem } from '../document/workflow-problem.ts';
import { loadVersionDocument } from './load-version-document.ts';
import {
  toSummary,
  toVersionSummary,
  toView,
  type LoadedWorkflowVersion,
  type WorkflowRow,
  type WorkflowSummary,
  type WorkflowVersionRow,
  type WorkflowVersionSummary,
  type WorkflowView,
} from './workflow.ts';

const SORT_SQL = { name: 'lower(name)', createdAt: 'created_at', updatedAt: 'updated_at' } as const;
/** Fields the workflow list sorts by. */
export const WORKFLOW_SORTS = Object.keys(SORT_SQL) as [keyof typeof SORT_SQL, ...(keyof typeof SORT_SQL)[]];

/** What creating a workflow takes. */
export interface WorkflowInput {
  name: string;
  yaml: string;
}

/** What saving the next version takes. */
export interface WorkflowChange {
  /** Absent keeps the name. */
  name?: string | undefined;
  yaml: string;
}

/** What the workflow list takes. */
export interface WorkflowListQuery {
  /** Case-insensitive, literal match on the name. */
  q?: string | undefined;
  sort?: string;
  limit?: number;
  offset?: number;
}

/**
 * Workflows and their versions in Postgres. Every save validates the YAML fully and adds a
 * version; versions are never changed. A save runs in one transaction that validates with the
 * memory definitions it binds locked, so the definitions cannot be deleted or re-slugged before
 * the save commits. Every write that changes which version is current, or whether the workflow
 * exists, tells `changes` (a ChangeNoticeSync of WORKFLOW_CHANGES) in its transaction, with the workflow's id.
 *
 * @example
 * const saved = await workflows.create({ name: 'Greeter', yaml }, principal.sub); // version 1
 * const { document } = await workflows.getVersion(saved.id); // what a run executes
 */
export class WorkflowStore {
  readonly #db: Knex;
  readonly #definitions: MemoryDefinitionStore;
  readonly #now: () => Date;
  readonly #changes: ChangeListener | undefined;

  constructor(db: Knex, definitions: MemoryDefinitionStore, options: { now: () => Date; changes?: ChangeListener }) {
    this.#db = db;
    this.#definitions = definitions;
    this.#now = options.now;
    this.#changes = options.changes;
  }

  async list({ q, sort = 'name', limit = 50, offset = 0 }: WorkflowListQuery = {}): Promise<Page<WorkflowSummary>> {
    const filtered = this.#db('workflows').modify((query) => {
      if (q) query.whereILike('name', likePattern(q));
    });
    const page = await fetchSortedPage<WorkflowRow>(filtered, { sortSql: SORT_SQL, fallback: SORT_SQL.name, sort, limit, offset });
    return { items: page.items.map(toSummary), total: page.total };
  }

  /** Whether a workflow has this id (a malformed id has none). */
  async exists(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.#db('workflows').where({ id }).first('id')) !== undefined;
  }

  /** The number of the workflow's current version; undefined when no workflow has this id (a malformed id has none). */
  async currentVersion(id: string): Promise<number | undefined> {
    if (!isUuid(id)) return undefined;
    const row: Pick<WorkflowRow, 'current_version'> | undefined = await this.#db<WorkflowRow>('workflows').where({ id }).first('current_version');
    return row?.current_version;
  }

  /** One version (the current one by default) with its YAML as saved. */
  async get(id: string, version?: number): Promise<WorkflowView> {
    const workflow = await this.#workflow(this.#db, id);
    const row = await this.#version(workflow, version ?? workflow.current_version);
    return toView(workflow, row);
  }

  /** Validates and saves version 1. Throws BOT_ERR_WORKFLOW_INVALID (422) or BOT_ERR_WORKFLOW_NAME_TAKEN (409). */
  async create(input: WorkflowInput, createdBy: string | undefined): Promise<WorkflowView> {
    return this.#write(async (trx) => {
      const document = await this.#validOrThrow(trx, input.yaml);
      const now = this.#now();
      const [workflow] = await trx('workflows')
        .insert({ name: input.name, current_version: 1, created_at: now, updated_at: now })
        .returning<WorkflowRow[]>('*');
      return toView(workflow!, await insertVersion(trx, workflow!, input.yaml, document, createdBy));
    }).catch((error: unknown) => rethrowNameTaken(error, input.name));
  }

  /**
   * Validates and saves the next version (and the new name, when given). The workflow row is
   * locked first, so concurrent saves get consecutive numbers, never the same one.
   */
  async update(id: string, change: WorkflowChange, createdBy: string | undefined): Promise<WorkflowView> {
    return this.#write(async (trx) => {
      const current = await this.#workflow(trx, id, { lock: true });
      const document = await this.#validOrThrow(trx, change.yaml);
      const [workflow] = await trx('workflows')
        .where({ id })
        .update({ current_version: current.current_version + 1, updated_at: this.#now(), ...(change.name !== undefined && { name: change.name }) })
        .returning<WorkflowRow[]>('*');
      return toView(workflow!, await insertVersion(trx, workflow!, change.yaml, document, createdBy));
    }).catch((error: unknown) => rethrowNameTaken(error, change.name ?? ''));
  }

  /** Deletes the workflow and all its versions. */
  async delete(id: string): Promise<void> {
    const deleted = isUuid(id) ? await this.#write(async (trx) => ((await trx('workflows').where({ id }).delete().returning<Pick<WorkflowRow, 'id'>[]>('id'))[0])) : undefined;
    if (!deleted) throw notFound(id);
  }

  /** A write and its change notice (with the workflow's id), see writeAndNotify. */
  #write<T extends { id: string } | undefined>(write: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return writeAndNotify(this.#db, this.#changes, write, (written) => written?.id);
  }

  /** The versions of a workflow, newest first. */
  async listVersions(id: string, { limit = 50, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<Page<WorkflowVersionSummary>> {
    await this.#workflow(this.#db, id);
    const versions = this.#db<WorkflowVersionRow>('workflow_versions').where({ workflow_id: id });
    const [rows, [counted]] = await Promise.all([
      versions.clone().select('version', 'created_at', 'created_by').orderBy('version', 'desc').limit(limit).offset(offset),
      versions.clone().count<{ count: number }[]>({ count: '*' }),
    ]);
    return { items: rows.map(toVersionSummary), total: Number(counted?.count ?? 0) };
  }

  /**
   * The parsed document of a version (the current one by default), for the runtime. Versions
   * never change, so each is parsed once per process.
   */
  async getVersion(workflowId: string, version?: number): Promise<LoadedWorkflowVersion> {
    const workflow = await this.#workflow(this.#db, workflowId);
    const number = version ?? workflow.current_version;
    const document = await loadVersionDocument(workflowId, number, async () => (await this.#version(workflow, number)).yaml);
    return { workflowId, name: workflow.name, version: number, document };
  }

  /**
   * The document of one version, parsed once per process (versions never change): a live run
   * that already knows the version it runs reads nothing from the database.
   */
  versionDocument(workflowId: string, version: number): Promise<WorkflowDocument> {
    return loadVersionDocument(workflowId, version, async () => {
      const row: Pick<WorkflowVersionRow, 'yaml'> | undefined = await this.#db<WorkflowVersionRow>('workflow_versions').where({ workflow_id: workflowId, version }).first('yaml');
      if (!row) throw new AppError('BOT_ERR_WORKFLOW_VERSION_NOT_FOUND', `The workflow has no version ${version}`, { id: workflowId, version });
      return row.yaml;
    });
  }

  /**
   * An unsaved draft of a workflow, parsed and validated exactly as a save would (the same
   * BOT_ERR_WORKFLOW_INVALID, 422, with the same problems) and saved nowhere: what a test run of
   * the editor's text executes. Its `version` is the current one, the version it was edited from.
   */
  async draftVersion(workflowId: string, yaml: string): Promise<LoadedWorkflowVersion> {
    const workflow = await this.#workflow(this.#db, workflowId);
    const document = await documentOrThrow(yaml, this.#definitions);
    return { workflowId, name: workflow.name, version: workflow.current_version, document };
  }

  /** Validates YAML as a save would, without saving: the answer to "is this right?". */
  async validate(yaml: string): Promise<Pick<WorkflowValidation, 'valid' | 'problems'>> {
    const { valid, problems } = await validateWorkflowYaml(yaml, this.#definitions);
    return { valid, problems };
  }

  async #validOrThrow(trx: Knex.Transaction, yaml: string): Promise<WorkflowDocument> {
    const lookup: MemoryDefinitionLookup = {
      findByIds: (ids) => this.#definitions.findByIds(ids, { lockIn: trx }),
      findBySlugs: (slugs) => this.#definitions.findBySlugs(slugs, { transaction: trx }),
    };
    return documentOrThrow(yaml, lookup);
  }

  async #workflow(db: Knex, id: string, { lock = false } = {}): Promise<WorkflowRow> {
    const query = db<WorkflowRow>('workflows').where({ id }).first();
    const row = isUuid(id) ? await (lock ? query.forUpdate() : query) : undefined;
    if (!row) throw notFound(id);
    return row;
  }

  async #version(workflow: WorkflowRow, version: number): Promise<WorkflowVersionRow> {
    const row = await this.#db<WorkflowVersionRow>('workflow_versions').where({ workflow_id: workflow.id, version }).first();
    if (!row) {
      throw new AppError('BOT_ERR_WORKFLOW_VERSION_NOT_FOUND', `Workflow "${workflow.name}" has no version ${version}`, {
        id: workflow.id,
        version,
        currentVersion: workflow.current_version,
      });
    }
    return row;
  }
}

async function insertVersion(
  trx: Knex.Transaction,
  workflow: WorkflowRow,
  yaml: string,
  document: WorkflowDocument,
  createdBy: string | undefined,
): Promise<WorkflowVersionRow> {
  const [row] = await trx('workflow_versions')
    .insert({
      workflow_id: workflow.id,
      version: workflow.current_version,
      yaml,
      document: JSON.stringify(document),
      memory_definition_ids: boundDefinitionIds(document),
      created_at: workflow.updated_at,
      created_by: createdBy ?? null,
    })
    .returning<WorkflowVersionRow[]>('*');
  return row!;
}

/** The document of valid YAML; BOT_ERR_WORKFLOW_INVALID (422) with every problem otherwise. Saves and drafts both check this way. */
async function documentOrThrow(yaml: string, lookup: MemoryDefinitionLookup): Promise<WorkflowDocument> {
  const { document, problems } = await validateWorkflowYaml(yaml, lookup);
  if (!document) throw invalid(problems);
  return document;
}

function invalid(problems: WorkflowProblem[]): AppError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new AppError('BOT_ERR_WORKFLOW_INVALID', `The workflow has ${count}: ${problems[0]?.path || 'document'}: ${problems[0]?.message}`, { problems });
}

function notFound(id: string): AppError {
  return new AppError('BOT_ERR_WORKFLOW_NOT_FOUND', `No workflow has the id "${id}"`, { id });
}

/** The unique index catches what a pre-check would miss: two requests saving the same name at once. */
function rethrowNameTaken(error: unknown, name: string): never {
  if (pgErrorCode(error) === PG_UNIQUE_VIOLATION && pgConstraint(error) === 'workflows_name_unique') {
    throw new AppError('BOT_ERR_WORKFLOW_NAME_TAKEN', `A workflow is already named "${name}"`, { field: 'name' }, { cause: error });
  }
  throw error;
}
