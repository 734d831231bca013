import { hoverTooltip, type Tooltip } from '@codemirror/view';
import { actionDescription } from './action-docs.ts';
import { memoryDefinitionsField } from './memory-definitions.ts';
import { placeAt } from './place-at.ts';
import { propertySchema, schemaAt } from './schema-at.ts';

const KEY = /^( *)(- +)?([\w$.-]+) *:/;

/** Hovering a key shows its schema description; hovering an action or a definition id says what it is. */
export const schemaHover = hoverTooltip((view, pos): Tooltip | null => {
  const line = view.state.doc.lineAt(pos);
  const match = KEY.exec(line.text);
  if (!match) return null;
  const keyFrom = line.from + match[1]!.length + (match[2]?.length ?? 0);
  const keyTo = keyFrom + match[3]!.length;
  const onKey = pos >= keyFrom && pos <= keyTo;
  const text = onKey ? keyDescription(view.state, keyTo, match[3]!) : valueDescription(view.state, match[3]!, line.text.slice(match[0].length));
  if (!text) return null;
  return {
    pos: onKey ? keyFrom : line.from + match[0].length,
    end: onKey ? keyTo : line.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm-schema-doc';
      dom.textContent = text;
      return { dom };
    },
  };
});

function keyDescription(state: Parameters<typeof placeAt>[0], keyTo: number, key: string): string | undefined {
  const { place } = placeAt(state, keyTo);
  if (!place) return undefined;
  const container = place.ancestors.at(-1)!;
  const parentSchema = schemaAt(place.ancestors);
  const node = container.children.find((child) => child.key === key);
  const schema = parentSchema && propertySchema(parentSchema, container, key, node);
  return schema?.description && `${key}: ${schema.description}`;
}

function valueDescription(state: Parameters<typeof placeAt>[0], key: string, value: string): string | undefined {
  const trimmed = value.trim().replace(/\s+#.*$/, '');
  if (key === 'action') return actionDescription(trimmed);
  if (key === 'definition_id') {
    const definition = state.field(memoryDefinitionsField).find((candidate) => candidate.id === trimmed);
    return definition && `Memory definition "${definition.name}" (slug ${definition.slug}, ${definition.scope})`;
  }
  return undefined;
}
