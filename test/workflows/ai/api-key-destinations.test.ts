import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import nock from 'nock';
import { isAppError } from '../../../host/errors/app-error.ts';
import { aiGenerateTextAction } from '../../../host/workflows/actions/ai-generate-text.action.ts';
import type { WorkflowDocument } from '../../../host/workflows/document/workflow-document.ts';
import { readNamedApiKeys } from '../../../host/config/named-api-keys.ts';
import type { ModelResolver } from '../../../host/workflows/runtime/action.ts';
import { AI_API_KEY, AI_BASE_URL, chatServer, completion, documentWith, invocationOf, runOf, services, testModels } from './ai-fixtures.ts';

before(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
after(() => nock.enableNetConnect());

/** The operator's second provider, and the key bound to it. */
const GROQ_KEY = 'gsk-test-named-key-0123456789';
const GROQ_ORIGIN = 'http://groq.test';
const ENV = { BOT_AI_API_KEY_GROQ: GROQ_KEY, BOT_AI_BASE_URL_GROQ: `${GROQ_ORIGIN}/openai/v1` };

/** A server of the editor's choosing, and one inside the host's network. */
const ATTACKER_ORIGIN = 'http://attacker.test';
const METADATA_ORIGIN = 'http://169.254.169.254';

type Settings = Record<string, string>;

function modelDef(settings: Settings): WorkflowDocument['defs'][string] {
  return { kind: 'model', settings: { provider: 'openai-compatible', model_id: 'llama', ...settings } } as WorkflowDocument['defs'][string];
}

function generate(models: ModelResolver, settings: Settings) {
  const document = documentWith({ summary: { action: 'ai_generate_text', inputs: {} } }, {}, modelDef(settings));
  return aiGenerateTextAction.run(invocationOf(runOf(document), 'summary', { prompt: 'hi' }), services({ models }));
}

/** Records every request `origin` receives, whatever its path. */
function anyRequestTo(origin: string): { authorizations: (string | null)[] } {
  const seen = { authorizations: [] as (string | null)[] };
  nock(origin)
    .post(/.*/)
    .times(10)
    .reply(async (request: Request) => {
      seen.authorizations.push(request.headers.get('authorization'));
      return [200, completion({ content: 'exfiltrated' })];
    });
  return seen;
}

/** A coded error whose message and details never hold `secret`. */
function codedWithout(code: string, secret: string) {
  return (error: unknown) => {
    assert.ok(isAppError(error), `expected an AppError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.ok(!JSON.stringify({ message: error.message, details: error.details }).includes(secret), 'the key leaked into the error');
    return true;
  };
}

test('a named key is sent to its BOT_AI_BASE_URL_<NAME>, the URL the operator bound to it', async () => {
  const server = chatServer([[200, completion({ content: 'ok' })]], GROQ_ORIGIN, '/openai/v1/chat/completions');
  await generate(testModels({}, readNamedApiKeys(ENV)), { api_key_env: 'BOT_AI_API_KEY_GROQ' });
  assert.deepEqual(server.authorizations, [`Bearer ${GROQ_KEY}`]);
});

for (const allowWorkflowBaseUrl of [false, true]) {
  test(`a def naming a key and a base_url of its own is refused and the key never leaves (BOT_AI_ALLOW_WORKFLOW_BASE_URL ${allowWorkflowBaseUrl})`, async () => {
    const attacker = anyRequestTo(ATTACKER_ORIGIN);
    const groq = anyRequestTo(GROQ_ORIGIN);
    const models = testModels({ BOT_AI_ALLOW_WORKFLOW_BASE_URL: allowWorkflowBaseUrl }, readNamedApiKeys(ENV));

    await assert.rejects(
      generate(models, { base_url: `${ATTACKER_ORIGIN}/v1`, api_key_env: 'BOT_AI_API_KEY_GROQ' }),
      codedWithout('BOT_ERR_AI_MODEL_SETTINGS_INVALID', GROQ_KEY),
    );
    assert.deepEqual(attacker.authorizations, []);
    assert.deepEqual(groq.authorizations, []);
  });
}

for (const [what, env] of [
  ['unset', { BOT_AI_API_KEY_GROQ: GROQ_KEY }],
  ['not an http(s) URL', { BOT_AI_API_KEY_GROQ: GROQ_KEY, BOT_AI_BASE_URL_GROQ: 'file:///etc/passwd' }],
] as const) {
  test(`a named key whose BOT_AI_BASE_URL_<NAME> is ${what} is never sent anywhere`, async () => {
    const fallback = anyRequestTo(new URL(AI_BASE_URL).origin);
    await assert.rejects(
      generate(testModels({}, readNamedApiKeys(env)), { api_key_env: 'BOT_AI_API_KEY_GROQ' }),
      (error: unknown) => codedWithout('BOT_ERR_AI_MODEL_SETTINGS_INVALID', GROQ_KEY)(error) && (error as Error).message.includes('BOT_AI_BASE_URL_GROQ'),
    );
    assert.deepEqual(fallback.authorizations, []);
  });
}

test('with BOT_AI_ALLOW_WORKFLOW_BASE_URL on, a base_url in the YAML is called without any key, even the default URL', async () => {
  const models = testModels({ BOT_AI_ALLOW_WORKFLOW_BASE_URL: true }, readNamedApiKeys(ENV));
  const elsewhere = anyRequestTo(ATTACKER_ORIGIN);
  const same = anyRequestTo(new URL(AI_BASE_URL).origin);

  await generate(models, { base_url: `${ATTACKER_ORIGIN}/v1` });
  await generate(models, { base_url: AI_BASE_URL, model_id: 'other' });

  assert.deepEqual(elsewhere.authorizations, [null]);
  assert.deepEqual(same.authorizations, [null]);
});

test('with BOT_AI_ALLOW_WORKFLOW_BASE_URL off (the default), a base_url in the YAML is refused before any request', async () => {
  const metadata = anyRequestTo(METADATA_ORIGIN);
  await assert.rejects(generate(testModels(), { base_url: `${METADATA_ORIGIN}/latest` }), codedWithout('BOT_ERR_AI_BASE_URL_FORBIDDEN', AI_API_KEY));
  assert.deepEqual(metadata.authorizations, []);
});

test('a def with neither base_url nor api_key_env sends the default key to BOT_AI_BASE_URL', async () => {
  const server = chatServer([[200, completion({ content: 'ok' })]]);
  await generate(testModels({}, readNamedApiKeys(ENV)), {});
  assert.deepEqual(server.authorizations, [`Bearer ${AI_API_KEY}`]);
});
