import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { PLATFORM_KEY, WEBHOOK_SECRET } from './conversation-harness.ts';

const GREETING = fileURLToPath(new URL('../../workflows/examples/greeting.yaml', import.meta.url));

/** A host reached over real HTTP (a child process), with an admin token for its secret. */
export interface RemoteHost {
  url: string;
  authSecret: string;
}

/**
 * Sets up, through the admin API of a running host, what ConversationHarness sets up in
 * process: the `profile` memory definition, the greeting workflow bound to it, and a sample
 * source whose replies go to `platformUrl`. Returns the source's webhook ref.
 */
export async function setUpGreetingOverHttp(host: RemoteHost, platformUrl: string): Promise<{ sourceRef: string }> {
  const token = signAdminToken({ sub: 'crash-test', role: 'admin' }, host.authSecret, { ttl: '10m' });
  const definition = await postCreated(host.url, token, '/api/memory-definitions', {
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
  });
  const yaml = bindDefinitionPlaceholders(readFileSync(GREETING, 'utf8'), new Map([['profile', definition.id as string]]));
  const workflow = await postCreated(host.url, token, '/api/workflows', { name: 'Greeting', yaml });
  const source = await postCreated(host.url, token, '/api/sources', {
    name: 'Sample platform',
    channel: 'sample',
    settings: { api_url: platformUrl, api_key: PLATFORM_KEY, webhook_secret: WEBHOOK_SECRET },
    defaultWorkflowId: workflow.id,
  });
  return { sourceRef: source.ref as string };
}

/** Posts one signed sample webhook carrying `events`; resolves with the HTTP status. */
export async function postSignedWebhook(hostUrl: string, sourceRef: string, events: Record<string, unknown>[]): Promise<number> {
  const body = JSON.stringify({ events });
  const signature = createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
  const response = await fetch(`${hostUrl}/api/webhook/${sourceRef}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bot-signature': signature },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

async function postCreated(hostUrl: string, token: string, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${hostUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.equal(response.status, 201, `${path}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
