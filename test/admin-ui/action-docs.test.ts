import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDescription, actionInputsSchema } from '../../host/admin/src/pages/workflows/editor/action-docs.ts';
import { ACTION_SPECS } from '../../host/workflows/runtime/action-specs.ts';

// The editor's words about actions are written beside the host's action table: an action or an
// input added there without them would be offered with no help (or not at all).

test('every action the host runs is described for the editor, with each of its inputs', () => {
  for (const [action, spec] of Object.entries(ACTION_SPECS)) {
    assert.ok(actionDescription(action), `${action} has a description`);
    const schema = actionInputsSchema({ type: 'object' }, action);
    const inputs = schema.properties as Record<string, { description?: string }>;
    assert.deepEqual(Object.keys(inputs).sort(), [...spec.required, ...spec.optional].sort(), `${action}: the inputs offered are the ones it takes`);
    for (const [input, property] of Object.entries(inputs)) assert.ok(property.description, `${action}.${input} has a description`);
    assert.deepEqual(schema.required, [...spec.required]);
  }
});
