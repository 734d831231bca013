import { actionInputsSchema, actionSchema, modelSettingsSchema } from './action-docs.ts';
import { WORKFLOW_SCHEMA, type JsonSchema } from './json-schema.ts';
import { childAt, childValue, type OutlineNode } from './yaml-outline.ts';

/** The schema of the last of `nodes` (root first), each `oneOf` settled by the node's `kind`. */
export function schemaAt(nodes: readonly OutlineNode[]): JsonSchema | undefined {
  let schema: JsonSchema | undefined = WORKFLOW_SCHEMA;
  for (let index = 1; index < nodes.length && schema; index++) schema = propertySchema(schema, nodes[index - 1]!, nodes[index]!.key, nodes[index]);
  return schema;
}

/** The schema of `key` in the mapping `parentNode` whose schema is `parent`. */
export function propertySchema(parent: JsonSchema, parentNode: OutlineNode, key: string, node?: OutlineNode): JsonSchema | undefined {
  if (key === '-') return parent.items && settleBranch(parent.items, node);
  const own = parent.properties?.[key];
  const child = own ?? (typeof parent.additionalProperties === 'object' ? parent.additionalProperties : undefined);
  return child && settleBranch(withHostKnowledge(parent, key, child, parentNode), node);
}

/** Adds what the host knows beyond the shape: actions, each action's inputs, model settings. */
function withHostKnowledge(parent: JsonSchema, key: string, child: JsonSchema, parentNode: OutlineNode): JsonSchema {
  const kind = parent.properties?.kind?.const;
  if (kind === 'task' && key === 'action') return actionSchema(child);
  if (kind === 'task' && key === 'inputs') return actionInputsSchema(child, childValue(parentNode, 'action'));
  if (kind === 'model' && key === 'settings') return modelSettingsSchema(child, childValue(childAt(parentNode, 'settings'), 'provider'));
  return child;
}

/** A `oneOf` as the branch whose `kind` the node names, else all branches as one (with `kind`'s values). */
function settleBranch(schema: JsonSchema, node: OutlineNode | undefined): JsonSchema {
  const branches = schema.oneOf ?? schema.anyOf;
  if (!branches) return schema;
  const kind = childValue(node, 'kind');
  const chosen = branches.find((branch) => branch.properties?.kind?.const === kind);
  if (chosen) return chosen;
  const kinds = branches.filter((branch) => branch.properties?.kind?.const !== undefined);
  return {
    type: 'object',
    description: schema.description ?? 'A def: `kind` memory, model or task',
    properties: {
      ...Object.assign({}, ...branches.map((branch) => branch.properties ?? {})),
      kind: { type: 'string', description: 'memory, model or task', enum: kinds.map((branch) => branch.properties!.kind!.const), enumDescriptions: kinds.map((branch) => branch.description ?? '') },
    },
    required: ['kind'],
  };
}
