import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pino from 'pino';
import type { MemoryScope } from '../../../host/memory/definitions/memory-definition.ts';
import { MemoryRecordStore } from '../../../host/memory/records/memory-record-store.ts';
import type { TaskDef, WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import type { RunState } from '../../../host/workflows/runtime/action.ts';
import { TestClock } from '../../support/test-clock.ts';

export const OWNER = 'subscriber-1';
export const WORKFLOW = 'workflow-1';
export const THREAD = 'thread-1';

export function createRecordStore(db: Knex): MemoryRecordStore {
  return new MemoryRecordStore(db, { now: new TestClock().now, logger: pino({ level: 'silent' }) });
}

export interface DefinitionRow {
  name: string;
  slug: string;
  scope?: MemoryScope;
  properties?: Record<string, unknown>;
}

const NOTE_PROPERTIES = { text: { type: 'string', description: 'A note' } };

/** Inserts a memory definition row (schema strict, as the definition store would save it); returns its id. */
export async function insertMemoryDefinition(db: Knex, { name, slug, scope = 'global', properties = NOTE_PROPERTIES }: DefinitionRow): Promise<string> {
  const [row] = await db('memory_definitions')
    .insert({ name, slug, scope, ttl_seconds: null, schema: { type: 'object', properties, additionalProperties: false } })
    .returning<{ id: string }[]>('id');
  return row!.id;
}

export interface DocumentParts {
  /** `kind: memory` defs: def name → definition id. */
  memory?: Record<string, string>;
  /** The workflow's `bindings.memory`. */
  bound?: string[];
  tasks?: Record<string, Omit<TaskDef, 'kind'>>;
}

export function buildDocument({ memory = {}, bound, tasks = {} }: DocumentParts = {}): WorkflowDocument {
  const memoryDefs = Object.entries(memory).map(([name, id]) => [name, { kind: 'memory' as const, settings: { definition_id: id } }]);
  const taskDefs = Object.entries({ reply: { action: 'send_text_message', inputs: { text: 'hi' } }, ...tasks }).map(([name, task]) => [
    name,
    { kind: 'task' as const, ...task },
  ]);
  return {
    defs: Object.fromEntries([...memoryDefs, ...taskDefs]),
    ...(bound && { bindings: { memory: bound } }),
    flow: [{ do: 'reply' }],
  };
}

/** A run as the runner builds it, for the owner, workflow and thread above and a fresh run id. */
export function buildRun(document: WorkflowDocument, overrides: Partial<RunState> = {}): RunState {
  return {
    runId: randomUUID(),
    workflowId: WORKFLOW,
    workflowVersion: 1,
    ownerId: OWNER,
    threadId: THREAD,
    sourceId: undefined,
    mode: 'test',
    document,
    input: { message_type: 'text', text: 'hi' },
    context: { memory: {} },
    outputs: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The values stored for an owner's slug, any workflow, thread or run, as the database holds them. */
export async function storedValues(db: Knex, ownerId: string, slug: string): Promise<unknown[]> {
  const rows: { value: unknown }[] = await db('memory_records as r')
    .join('memory_definitions as d', 'd.id', 'r.definition_id')
    .where({ 'd.slug': slug, 'r.owner_id': ownerId })
    .orderBy('r.created_at')
    .select('r.value');
  return rows.map(({ value }) => value);
}
