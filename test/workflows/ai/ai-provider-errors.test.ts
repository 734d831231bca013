import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, test } from 'node:test';
import nock from 'nock';
import { aiGenerateTextAction } from '../../../host/workflows/actions/ai-generate-text.action.ts';
import { isAppError } from '../../../host/errors/app-error.ts';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import type { ModelResolver } from '../../../host/workflows/runtime/action.ts';
import {
  AI_API_KEY,
  AI_ORIGIN,
  chatServer,
  completion,
  documentWith,
  invocationOf,
  runOf,
  services,
  testModels,
} from './ai-fixtures.ts';

before(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
after(() => nock.enableNetConnect());

const textTask = { summary: { action: 'ai_generate_text', inputs: {} } };

function generate(models: ModelResolver = testModels(), document: WorkflowDocument = documentWith(textTask), signal?: AbortSignal) {
  const run = runOf(document, 'hello', signal ? { signal } : {});
  return aiGenerateTextAction.run(invocationOf(run, 'summary', { prompt: 'hi' }), services({ models }));
}

/** Asserts a coded error whose message, details and cause chain never hold the API key. */
function codedWithoutKey(code: string, details: Record<string, unknown> = {}) {
  return (error: unknown) => {
    assert.ok(isAppError(error), `expected an AppError, got ${String(error)}`);
    assert.equal(error.code, code);
    for (const [key, value] of Object.entries(details)) assert.deepEqual((error.details as Record<string, unknown>)[key], value, key);
    const everything = JSON.stringify({ message: error.message, details: error.details, cause: String(error.cause), stack: error.stack });
    assert.ok(!everything.includes(AI_API_KEY), 'the API key leaked into the error');
    return true;
  };
}

for (const status of [401, 500]) {
  test(`a provider answering ${status} fails with BOT_ERR_AI_REQUEST_FAILED naming the status, never the key`, async () => {
    chatServer([[status, { error: { message: `Incorrect API key provided: ${AI_API_KEY.slice(0, 6)}…`, type: 'invalid_request_error' } }]]);
    await assert.rejects(generate(), codedWithoutKey('BOT_ERR_AI_REQUEST_FAILED', { status, provider: 'openai-compatible.chat', model: 'gpt-test' }));
  });
}

test('retries a retryable answer BOT_AI_MAX_RETRIES times, honouring retry-after-ms', async () => {
  nock(AI_ORIGIN).post('/v1/chat/completions').times(2).reply(503, { error: { message: 'overloaded' } }, { 'retry-after-ms': '10' });
  const server = chatServer([[200, completion({ content: 'finally' })]]);
  assert.deepEqual(await generate(testModels({ BOT_AI_MAX_RETRIES: 2 })), { text: 'finally' });
  assert.ok(server.scope.isDone());
});

test('does not retry an answer that retrying cannot fix', async () => {
  const scope = nock(AI_ORIGIN).post('/v1/chat/completions').reply(401, { error: { message: 'bad key' } });
  const never = chatServer([[200, completion({ content: 'never' })]]);
  await assert.rejects(generate(testModels({ BOT_AI_MAX_RETRIES: 2 })), { code: 'BOT_ERR_AI_REQUEST_FAILED' });
  assert.ok(scope.isDone());
  assert.equal(never.bodies.length, 0);
});

/**
 * A real server that accepts model calls and never answers (nock's delayed replies trip an
 * assertion inside undici when the request is aborted).
 */
async function silentServer(): Promise<{ baseUrl: string; close(): void }> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  nock.enableNetConnect('127.0.0.1');
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections();
      server.close();
      nock.disableNetConnect();
    },
  };
}

test('a model call slower than BOT_AI_REQUEST_TIMEOUT_MS fails with BOT_ERR_AI_TIMEOUT', async (t) => {
  const silent = await silentServer();
  t.after(() => silent.close());
  await assert.rejects(generate(testModels({ BOT_AI_BASE_URL: silent.baseUrl, BOT_AI_REQUEST_TIMEOUT_MS: 50 })), codedWithoutKey('BOT_ERR_AI_TIMEOUT'));
});

test("the run's own cancellation is passed on as it is, not as a model failure", async (t) => {
  const silent = await silentServer();
  t.after(() => silent.close());
  const controller = new AbortController();
  const running = generate(testModels({ BOT_AI_BASE_URL: silent.baseUrl }), documentWith(textTask), controller.signal);
  setTimeout(() => controller.abort(new Error('run cancelled')), 20);
  await assert.rejects(running, (error: Error) => !isAppError(error) && error.message === 'run cancelled');
});

test('an openai-compatible model without a base URL fails with BOT_ERR_AI_BASE_URL_MISSING', async () => {
  await assert.rejects(generate(testModels({ BOT_AI_BASE_URL: undefined })), codedWithoutKey('BOT_ERR_AI_BASE_URL_MISSING'));
});

test('a task with no model binding, or a binding to something else, fails with BOT_ERR_AI_MODEL_UNBOUND', async () => {
  const unbound = { ...documentWith(textTask), bindings: {} };
  const wrong = { ...documentWith(textTask), bindings: { model: 'summary' } };
  await assert.rejects(generate(testModels(), unbound), { code: 'BOT_ERR_AI_MODEL_UNBOUND' });
  await assert.rejects(generate(testModels(), wrong), { code: 'BOT_ERR_AI_MODEL_UNBOUND' });
});

test('an api_key_env naming a variable that was not set fails with BOT_ERR_AI_MODEL_SETTINGS_INVALID', async () => {
  const named = { kind: 'model', settings: { provider: 'openai-compatible', model_id: 'm', api_key_env: 'BOT_AI_API_KEY_MISSING' } } as const;
  await assert.rejects(generate(testModels(), documentWith(textTask, {}, named)), { code: 'BOT_ERR_AI_MODEL_SETTINGS_INVALID' });
});

test('an API key written in the workflow is refused without echoing it', async () => {
  const leaky = { kind: 'model', settings: { provider: 'openai-compatible', model_id: 'm', api_key: AI_API_KEY } } as const;
  await assert.rejects(generate(testModels(), documentWith(textTask, {}, leaky)), codedWithoutKey('BOT_ERR_AI_MODEL_SETTINGS_INVALID'));
});
