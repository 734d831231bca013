import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import type { AdminHost } from './admin-host.ts';

/** A one-task workflow the editor tests open, type into and save. */
export const ECHO_YAML = `description: Echoes every message
defs:
  reply:
    kind: task
    action: send_text_message
    inputs:
      text: '="You said: " & $input.text'
flow:
  - do: reply
`;

/** The example greeting workflow as shipped: its memory def names the slug `profile`, not an id. */
export const GREETING_YAML = readFileSync(new URL('../../workflows/examples/greeting.yaml', import.meta.url), 'utf8');

/**
 * What seeding does on a fresh embedded start: creates the `profile` memory definition and
 * returns the greeting workflow bound to it, ready to be saved.
 */
export async function profileGreetingYaml(admin: AdminHost): Promise<string> {
  const profile = await admin.api<{ id: string }>('POST', '/api/memory-definitions', {
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
  });
  assert.equal(profile.status, 201);
  return bindDefinitionPlaceholders(GREETING_YAML, new Map([['profile', profile.body.id]]));
}
