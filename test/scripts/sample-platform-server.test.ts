import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createSamplePlatformServer } from '../../scripts/sample/sample-platform-server.ts';

/** A platform on a free port, with what it printed; closed when the test ends. */
async function startPlatform(t: { after: (fn: () => unknown) => void }, apiKey?: string) {
  const lines: string[] = [];
  const server = createSamplePlatformServer({ apiKey, print: (line) => lines.push(line) });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const send = (body: unknown, headers: Record<string, string> = {}, path = '/messages') =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  return { lines, send, url };
}

test('prints each reply on one line and answers with a message id, as the sample platform does', async (t) => {
  const { lines, send } = await startPlatform(t);
  const response = await send({ recipient: { id: 'user-1' }, message: { text: 'Hello Ada!' } }, {}, '/api/messages');
  assert.equal(response.status, 200);
  assert.match(((await response.json()) as { id: string }).id, /^mid-/);
  assert.deepEqual(lines, ['reply to user-1: Hello Ada!']);
});

test('names the quick replies of a message that has some', async (t) => {
  const { lines, send } = await startPlatform(t);
  await send({ recipient: { id: 'u' }, message: { text: 'Pick', quick_replies: [{ title: 'Yes', payload: 'Y' }, { title: 'No', payload: 'N' }] } });
  assert.deepEqual(lines, ['reply to u: Pick [quick replies: Yes | No]']);
});

test('with an API key, refuses a send without its bearer token with 401 and accepts one with it', async (t) => {
  const { lines, send } = await startPlatform(t, 'k1');
  const body = { recipient: { id: 'u' }, message: { text: 'hi' } };
  assert.equal((await send(body, { authorization: 'Bearer other' })).status, 401);
  assert.equal((await send(body, { authorization: 'Bearer k1' })).status, 200);
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^refused a reply/);
});

test('answers 404 off the messages path and 400 to a body that is not JSON', async (t) => {
  const { send, url } = await startPlatform(t);
  assert.equal((await send({}, {}, '/other')).status, 404);
  const notJson = await fetch(`${url}/messages`, { method: 'POST', body: '{' });
  assert.equal(notJson.status, 400);
});
