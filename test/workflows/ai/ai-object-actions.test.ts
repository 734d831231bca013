import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import nock from 'nock';
import { aiGenerateObjectAction } from '../../../host/workflows/actions/ai-generate-object.action.ts';
import { aiGenerateTextAction } from '../../../host/workflows/actions/ai-generate-text.action.ts';
import { aiInferObjectAction } from '../../../host/workflows/actions/ai-infer-object.action.ts';
import { chatServer, completion, documentWith, invocationOf, RecordingOutbox, runOf, services } from './ai-fixtures.ts';

before(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
after(() => nock.enableNetConnect());

const BOOKING_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, day: { type: 'string', enum: ['monday', 'friday'] }, guests: { type: 'integer', minimum: 1 } },
  required: ['name', 'day'],
  additionalProperties: false,
};

const run = runOf(
  documentWith({
    summary: { action: 'ai_generate_text', inputs: {} },
    suggest: { action: 'ai_generate_object', inputs: {} },
    extract: { action: 'ai_infer_object', inputs: {} },
  }),
  "I'm Ada, book a table for Friday",
);

test('ai_generate_text returns the text without sending it', async () => {
  const server = chatServer([[200, completion({ content: 'A short summary.' })]]);
  const outbox = new RecordingOutbox();
  const output = await aiGenerateTextAction.run(invocationOf(run, 'summary', { prompt: 'Summarise: hi', system: 'Be terse.' }), services({ outbox }));
  assert.deepEqual(output, { text: 'A short summary.' });
  assert.deepEqual(outbox.sent, []);
  assert.deepEqual(server.bodies[0]!.messages, [
    { role: 'system', content: 'Be terse.' },
    { role: 'user', content: 'Summarise: hi' },
  ]);
});

test('ai_generate_object asks for the schema as a JSON response format and returns the object', async () => {
  const server = chatServer([[200, completion({ content: JSON.stringify({ name: 'Ada', day: 'friday', guests: 2 }) })]]);
  const output = await aiGenerateObjectAction.run(invocationOf(run, 'suggest', { prompt: 'Make a booking', schema: BOOKING_SCHEMA }), services());
  assert.deepEqual(output, { object: { name: 'Ada', day: 'friday', guests: 2 } });
  assert.equal(server.bodies[0]!.response_format?.type, 'json_schema');
  assert.deepEqual(server.bodies[0]!.response_format?.json_schema?.schema, BOOKING_SCHEMA);
  assert.equal(server.bodies[0]!.response_format?.json_schema?.strict, false);
});

test('ai_generate_object fails with BOT_ERR_AI_OUTPUT_INVALID when the answer does not match the schema', async () => {
  for (const content of [JSON.stringify({ name: 'Ada', day: 'sunday' }), JSON.stringify({ name: 'Ada' }), 'not json']) {
    chatServer([[200, completion({ content })]]);
    await assert.rejects(
      aiGenerateObjectAction.run(invocationOf(run, 'suggest', { prompt: 'Make a booking', schema: BOOKING_SCHEMA }), services()),
      { code: 'BOT_ERR_AI_OUTPUT_INVALID' },
      content,
    );
  }
});

test('ai_infer_object extracts from the inbound text by default, and from `text` when given', async () => {
  const server = chatServer([
    [200, completion({ content: JSON.stringify({ name: 'Ada', day: 'friday' }) })],
    [200, completion({ content: JSON.stringify({ name: 'Grace', day: 'monday' }) })],
  ]);
  const fromInbound = await aiInferObjectAction.run(invocationOf(run, 'extract', { schema: BOOKING_SCHEMA }), services());
  const fromText = await aiInferObjectAction.run(invocationOf(run, 'extract', { schema: BOOKING_SCHEMA, text: 'Grace, Monday' }), services());

  assert.deepEqual(fromInbound, { object: { name: 'Ada', day: 'friday' } });
  assert.deepEqual(fromText, { object: { name: 'Grace', day: 'monday' } });
  assert.deepEqual(server.bodies[0]!.messages.at(-1), { role: 'user', content: "I'm Ada, book a table for Friday" });
  assert.deepEqual(server.bodies[1]!.messages.at(-1), { role: 'user', content: 'Grace, Monday' });
  assert.match(String(server.bodies[0]!.messages[0]!.content), /^Extract the information/);
});

test('a schema that is not an object schema, or not a JSON Schema at all, is an input error found before any call', async () => {
  for (const schema of [{ type: 'string' }, { type: 'object', properties: { name: { type: 'no-such-type' } } }]) {
    await assert.rejects(aiGenerateObjectAction.run(invocationOf(run, 'suggest', { prompt: 'x', schema }), services()), {
      code: 'BOT_ERR_AI_INPUT_INVALID',
    });
  }
  await assert.rejects(aiInferObjectAction.run(invocationOf(run, 'extract', { schema: 'nope' }), services()), { code: 'BOT_ERR_AI_INPUT_INVALID' });
});
