import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskDef } from '../../../host/workflows/document/workflow-document.ts';
import { modelSettingsProblems } from '../../../host/workflows/models/model-settings.ts';
import { readNamedApiKeys } from '../../../host/config/named-api-keys.ts';
import { CHAT_MODEL, documentWith, OFFLINE_MODEL, testModels } from './ai-fixtures.ts';

const cases: [string, unknown, string[][]][] = [
  ['an offline model', { provider: 'offline', model_id: 'demo' }, []],
  ['an openai-compatible model on the default URL', { provider: 'openai-compatible', model_id: 'gpt-4o-mini' }, []],
  ['a named key (its URL is the operator\'s)', { provider: 'openai-compatible', model_id: 'llama-3.1-8b', api_key_env: 'BOT_AI_API_KEY_GROQ' }, []],
  ['a base URL of its own, without a key', { provider: 'openai-compatible', model_id: 'llama3.2', base_url: 'http://127.0.0.1:11434/v1' }, []],
  [
    'a named key sent to a base URL of its own',
    { provider: 'openai-compatible', model_id: 'llama3.2', base_url: 'http://attacker.test/v1', api_key_env: 'BOT_AI_API_KEY_GROQ' },
    [['base_url']],
  ],
  [
    'a named key sent to a base URL of its own, beside a typo',
    { provider: 'openai-compatible', model_id: 'x', base_url: 'http://attacker.test/v1', api_key_env: 'BOT_AI_API_KEY_GROQ', temprature: 1 },
    [['temprature'], ['base_url']],
  ],
  ['an unknown provider', { provider: 'openai', model_id: 'x' }, [['provider']]],
  ['no model id', { provider: 'offline' }, [['model_id']]],
  ['a base URL that is not http(s)', { provider: 'openai-compatible', model_id: 'x', base_url: 'file:///etc/passwd' }, [['base_url']]],
  ['a key variable outside BOT_AI_API_KEY_*', { provider: 'openai-compatible', model_id: 'x', api_key_env: 'BOT_AUTH_SECRET' }, [['api_key_env']]],
  ['a key written in the YAML', { provider: 'openai-compatible', model_id: 'x', api_key: 'sk-1' }, [['api_key']]],
  ['a misspelt setting', { provider: 'offline', model_id: 'x', temprature: 1 }, [['temprature']]],
];

for (const [what, settings, paths] of cases) {
  test(`model settings: ${what} → ${paths.length === 0 ? 'accepted' : 'problems at ' + JSON.stringify(paths)}`, () => {
    const problems = modelSettingsProblems(settings);
    assert.deepEqual(problems.map(({ path }) => path), paths);
    for (const { message } of problems) assert.ok(!message.includes('sk-1'), 'a problem echoed the value');
  });
}

test('reads only non-empty BOT_AI_API_KEY_<NAME> variables, each bound to its BOT_AI_BASE_URL_<NAME>', () => {
  const keys = readNamedApiKeys({
    BOT_AI_API_KEY_GROQ: 'g',
    BOT_AI_BASE_URL_GROQ: 'https://api.groq.com/openai/v1',
    BOT_AI_API_KEY_LOCAL: 'l',
    BOT_AI_BASE_URL_LOCAL: 'file:///etc/passwd',
    BOT_AI_API_KEY_LONE: 'x',
    BOT_AI_BASE_URL_NOKEY: 'https://nokey.test/v1',
    BOT_AI_API_KEY_EMPTY: '',
    BOT_AI_API_KEY: 'default',
    BOT_AUTH_SECRET: 's',
    HOME: '/root',
  });
  assert.deepEqual(Object.fromEntries(keys), {
    BOT_AI_API_KEY_GROQ: { key: 'g', baseUrlEnv: 'BOT_AI_BASE_URL_GROQ', baseUrl: 'https://api.groq.com/openai/v1' },
    BOT_AI_API_KEY_LOCAL: { key: 'l', baseUrlEnv: 'BOT_AI_BASE_URL_LOCAL', baseUrl: undefined },
    BOT_AI_API_KEY_LONE: { key: 'x', baseUrlEnv: 'BOT_AI_BASE_URL_LONE', baseUrl: undefined },
  });
});

test('resolves each model def once: the task binding wins over the workflow binding, and equal settings share a model', () => {
  const models = testModels();
  const document = documentWith({ a: { action: 'ai_generate_text' }, b: { action: 'ai_generate_text', bindings: { model: 'local' } } }, { local: OFFLINE_MODEL });
  const task = (name: string) => document.defs[name] as TaskDef;

  const first = models.modelFor(task('a'), document);
  assert.equal(models.modelFor(task('a'), document), first);
  assert.equal(models.modelFor(task('a'), structuredClone(document)), first);
  assert.notEqual(models.modelFor(task('b'), document), first);
  assert.equal(typeof first === 'object' && first.modelId, CHAT_MODEL.settings.model_id);
  const offline = models.modelFor(task('b'), document);
  assert.equal(typeof offline === 'object' && offline.provider, 'offline');
});
