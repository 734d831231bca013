import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpChannelHandler } from '@bot-ai/api';
import { MAX_WEBHOOK_BODY_DEPTH, parseWebhookBody } from '../../../host/channels/plugin-side/parse-webhook-body.ts';
import { receiveWebhookTask } from '../../../host/channels/plugin-side/webhook-tasks.ts';

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

test('a form body (Slack posts its interactive payloads so) is an object of its fields; JSON is not looked for in it', () => {
  const raw = Buffer.from('payload=%7B%22type%22%3A%22block_actions%22%7D&token=a&token=b');
  assert.deepEqual(parseWebhookBody(raw, 'application/x-www-form-urlencoded; charset=utf-8'), { payload: '{"type":"block_actions"}', token: 'b' });
  assert.deepEqual(parseWebhookBody(Buffer.from('{"a":1}'), 'application/json'), { a: 1 });
  assert.equal(parseWebhookBody(raw, 'application/json'), undefined);
});

test("the channel's decode sees the form's fields as req.body", async () => {
  let seen: unknown;
  const handler = { verifySignature() {}, decode(req: { body: unknown }) { seen = req.body; return []; } } as unknown as HttpChannelHandler;
  const rawBody = Buffer.from('payload=%7B%7D');
  const request = { method: 'POST' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, query: {}, params: {}, rawBody };
  const result = await receiveWebhookTask(handler, request, { id: 's', ref: 'r', settings: {}, active: true });
  assert.equal(result.outcome, 'accepted');
  assert.deepEqual(seen, { payload: '{}' });
});
