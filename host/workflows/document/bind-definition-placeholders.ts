import { isMap, isScalar, parseDocument, type Scalar } from 'yaml';

/**
 * Replaces memory defs' `settings.definition_id` values that are slugs by the ids of those
 * definitions, leaving the rest of the text exactly as written (comments, layout, quoting).
 * Memory definition ids are made per database, so shipped workflows (the examples, seeds) name
 * their definitions by slug; this binds them to one database. Values not in `idBySlug` are
 * kept, and validation then reports them.
 *
 * @example
 * bindDefinitionPlaceholders(text, new Map([['profile', definition.id]]));
 * // `definition_id: profile` → `definition_id: 6f1c…`
 */
export function bindDefinitionPlaceholders(text: string, idBySlug: ReadonlyMap<string, string>): string {
  const defs = parseDocument(text).get('defs', true);
  if (!isMap(defs)) return text;
  const replacements = defs.items.flatMap((pair) => {
    const def = pair.value;
    if (!isMap(def) || def.get('kind') !== 'memory') return [];
    const id = def.getIn(['settings', 'definition_id'], true);
    const replacement = isScalar(id) && typeof id.value === 'string' ? idBySlug.get(id.value) : undefined;
    return replacement !== undefined && id ? [{ range: (id as Scalar).range!, replacement }] : [];
  });
  // From the end, so earlier offsets stay valid.
  return replacements
    .sort((a, b) => b.range[0] - a.range[0])
    .reduce((result, { range, replacement }) => result.slice(0, range[0]) + replacement + result.slice(range[1]), text);
}
