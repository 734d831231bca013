import { syntaxTree } from '@codemirror/language';
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { Binding } from './binding.ts';
import { expressionBindings } from './jsonata-bindings.ts';
import { JSONATA_FUNCTIONS, type JsonataFunction } from '../../../../../workflows/expressions/jsonata-functions.ts';
import { expressionNode } from './jsonata-marks.ts';
import { memoryDefinitionsField } from './memory-definitions.ts';
import { placeAt } from './place-at.ts';

/**
 * Inside a JSONata expression: `$` and a path complete the variables the run binds (memory
 * fields from each definition's schema included), and `$` alone JSONata's functions too.
 */
export function jsonataCompletion(context: CompletionContext): CompletionResult | null {
  if (!inExpression(context)) return null;
  const word = context.matchBefore(/\$[\w.]*/);
  if (!word) return null;
  const { root, place } = placeAt(context.state, context.pos);
  const task = place?.ancestors.find((node, index) => place.ancestors[index - 1]?.key === 'defs')?.key;
  const parts = word.text.slice(1).split('.');
  const typed = parts.pop()!;
  let level = expressionBindings(root, context.state.field(memoryDefinitionsField), task);
  for (const part of parts) level = level.find((binding) => binding.name === part)?.children ?? [];
  const options: Completion[] = level.map((binding) => option(binding, parts.length === 0));
  if (parts.length === 0) options.push(...JSONATA_FUNCTIONS.map(functionOption));
  return { from: word.to - typed.length - (parts.length === 0 ? 1 : 0), options, validFor: /^\$?\w*$/ };
}

function option(binding: Binding, isRoot: boolean): Completion {
  return {
    label: isRoot ? `$${binding.name}` : binding.name,
    type: binding.children ? 'namespace' : 'variable',
    ...(binding.detail && { detail: binding.detail }),
    info: binding.info,
  };
}

/** A JSONata function: its signature beside the name, what it does below, and `(` written after it. */
function functionOption({ name, signature, description }: JsonataFunction): Completion {
  return { label: `$${name}`, type: 'function', detail: signature, info: description, apply: `$${name}(` };
}

function inExpression(context: CompletionContext): boolean {
  if (expressionNode(context.state, syntaxTree(context.state).resolveInner(context.pos, -1))) return true;
  // An unclosed quote is not yet a scalar for the parser: read the line.
  const line = context.state.doc.lineAt(context.pos);
  return /:\s*['"]?=/.test(line.text.slice(0, context.pos - line.from));
}
