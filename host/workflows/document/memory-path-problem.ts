import type { ErrorCode } from '../../errors/error-codes.ts';
import { didYouMean } from './closest-name.ts';
import type { ReferenceSegment } from './expression-references.ts';
import { readableDefinition, type KnownDefinitions } from './known-memory-definitions.ts';
import { schemaField } from './schema-field.ts';

/** A wrong name in an expression: what to say, and where it starts in the JSONata text. */
export interface SegmentProblem {
  code: ErrorCode;
  message: string;
  start: number;
}

/**
 * Checks what `$context.memory.<slug>.<field…>` reads: the slug must be memory a run loads
 * (global, or declared by a `kind: memory` def), and each field must be one its definition's
 * JSON Schema lists, as far as the schema can say.
 *
 * @example
 * memoryPathProblem([{ name: 'visitr', start: 16 }, { name: 'name', start: 23 }], known);
 * // { code: 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', message: '$context.memory has no "visitr"…; did you mean `visitor`?', start: 16 }
 */
export function memoryPathProblem(segments: readonly ReferenceSegment[], known: KnownDefinitions): SegmentProblem | undefined {
  const [slug, ...fields] = segments;
  if (!slug) return undefined;
  const definition = readableDefinition(known, slug.name);
  if (!definition) return slugProblem(slug, known);
  let schema = definition.schema;
  let read = `$context.memory.${slug.name}`;
  for (const field of fields) {
    const answer = schemaField(schema, field.name);
    if (answer.kind === 'unknown') return undefined;
    if (answer.kind === 'scalar') {
      return { code: 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', message: `${read} is a ${answer.type}: it has no field "${field.name}"`, start: field.start };
    }
    if (answer.kind === 'absent') {
      const listed = answer.fields.length > 0 ? answer.fields.join(', ') : 'none';
      const message = `${read} has no field "${field.name}" in the "${slug.name}" schema (its fields: ${listed})${didYouMean(field.name, answer.fields)}`;
      return { code: 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN', message, start: field.start };
    }
    schema = answer.schema;
    read = `${read}.${field.name}`;
  }
  return undefined;
}

function slugProblem(slug: ReferenceSegment, known: KnownDefinitions): SegmentProblem {
  const existing = known.bySlug.get(slug.name);
  if (existing) {
    return {
      code: 'BOT_ERR_WORKFLOW_MEMORY_NOT_BOUND',
      message: `"${slug.name}" is ${existing.scope} memory that no \`kind: memory\` def declares, so a run never loads it: add a memory def whose definition_id is "${existing.id}"`,
      start: slug.start,
    };
  }
  const readable = [...known.bySlug.keys()].filter((candidate) => readableDefinition(known, candidate));
  const hint = readable.length > 0 ? ` (it holds ${readable.join(', ')})` : '';
  return {
    code: 'BOT_ERR_WORKFLOW_REFERENCE_UNKNOWN',
    message: `$context.memory has no "${slug.name}": a run reads global memory and the memory the workflow's \`kind: memory\` defs declare${hint}${didYouMean(slug.name, readable)}`,
    start: slug.start,
  };
}
