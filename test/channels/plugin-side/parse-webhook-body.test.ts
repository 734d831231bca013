import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_WEBHOOK_BODY_DEPTH, parseWebhookBody } from '../../../host/channels/plugin-side/parse-webhook-body.ts';

const nested = (depth: number) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`);

test('parses a body nested up to the depth limit, and treats a deeper one as not JSON', () => {
  assert.ok(Array.isArray(parseWebhookBody(nested(MAX_WEBHOOK_BODY_DEPTH))));
  assert.equal(parseWebhookBody(nested(MAX_WEBHOOK_BODY_DEPTH + 1)), undefined);
  assert.equal(parseWebhookBody(nested(100_000)), undefined);
});

test('brackets inside strings, escaped quotes included, do not count as nesting', () => {
  const text = JSON.stringify({ text: `\\"${'['.repeat(500)}{{{` });
  assert.deepEqual(parseWebhookBody(Buffer.from(text)), JSON.parse(text));
});

test('an empty body or one that is not JSON is undefined', () => {
  assert.equal(parseWebhookBody(Buffer.alloc(0)), undefined);
  assert.equal(parseWebhookBody(Buffer.from('{"a":')), undefined);
});
