import assert from 'node:assert/strict';
import type { TestApp } from './test-app.ts';

/** POSTs `body` to `url` as an admin, asserts 201 (naming the URL and answer if not) and returns the created record. */
export async function expectCreated(app: TestApp, url: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await app.request('POST', url, { as: 'admin', body });
  assert.equal(response.status, 201, `${url}: ${response.text}`);
  return response.body;
}
