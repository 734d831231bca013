import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { wrapLanguageModel } from 'ai';
import { AppError } from '../../errors/app-error.ts';
import type { LanguageModelV4 } from './language-model-types.ts';
import type { ModelSettingsProblem, OpenAiCompatibleSettings } from './model-settings.ts';
import type { NamedApiKey } from '../../config/named-api-keys.ts';

/** Where `openai-compatible` models may connect, and with which keys: all set by the operator. */
export interface OpenAiCompatibleConnection {
  /** BOT_AI_BASE_URL */
  baseUrl: string | undefined;
  /** BOT_AI_API_KEY: only ever sent to `baseUrl`. */
  apiKey: string | undefined;
  /** BOT_AI_API_KEY_<NAME> variables, for `settings.api_key_env`, each only sent to its BOT_AI_BASE_URL_<NAME>. */
  namedApiKeys: ReadonlyMap<string, NamedApiKey>;
  /** BOT_AI_ALLOW_WORKFLOW_BASE_URL: whether a def's `settings.base_url` may be called at all. */
  allowWorkflowBaseUrl: boolean;
}

/** The URL one model calls and the key it sends there, if any. */
interface Endpoint {
  baseURL: string;
  apiKey: string | undefined;
}

/**
 * A chat model of any OpenAI-compatible API (OpenAI, Ollama, vLLM, LM Studio, …): `POST
 * <base URL>/chat/completions` with a bearer key. Every key is bound to the URL the operator
 * configured for it, so no workflow can carry a key anywhere else:
 * - `settings.api_key_env` names BOT_AI_API_KEY_<NAME>: sent to BOT_AI_BASE_URL_<NAME> only;
 * - `settings.base_url` (when BOT_AI_ALLOW_WORKFLOW_BASE_URL is on): called with no key;
 * - neither: BOT_AI_API_KEY, sent to BOT_AI_BASE_URL.
 */
export function createOpenAiCompatibleModel(
  defName: string,
  settings: OpenAiCompatibleSettings,
  connection: OpenAiCompatibleConnection,
): LanguageModelV4 {
  const { baseURL, apiKey } = endpointFor(defName, settings, connection);
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL, apiKey, supportsStructuredOutputs: true });
  return wrapLanguageModel({ model: provider.chatModel(settings.model_id), middleware: { transformParams: nonStrictSchemas } });
}

function endpointFor(defName: string, settings: OpenAiCompatibleSettings, connection: OpenAiCompatibleConnection): Endpoint {
  if (settings.api_key_env) return namedEndpoint(defName, settings, connection);
  if (settings.base_url) return workflowEndpoint(defName, settings.base_url, connection);
  if (!connection.baseUrl) {
    throw new AppError(
      'BOT_ERR_AI_BASE_URL_MISSING',
      `Model "${defName}" uses the openai-compatible provider, but no base URL is configured: set BOT_AI_BASE_URL`,
      { model: defName },
    );
  }
  return { baseURL: connection.baseUrl, apiKey: connection.apiKey };
}

function namedEndpoint(defName: string, settings: OpenAiCompatibleSettings, connection: OpenAiCompatibleConnection): Endpoint {
  const env = settings.api_key_env!;
  const named = connection.namedApiKeys.get(env);
  // Settings are checked before a model is built; this is the last guard before a key leaves.
  if (named?.baseUrl && settings.base_url === undefined) return { baseURL: named.baseUrl, apiKey: named.key };
  const problem = namedKeyProblem(env, settings, named);
  throw new AppError('BOT_ERR_AI_MODEL_SETTINGS_INVALID', `Model "${defName}" has invalid settings: settings.${problem.path.join('.')}: ${problem.message}`, {
    model: defName,
    problems: [problem],
  });
}

function namedKeyProblem(env: string, settings: OpenAiCompatibleSettings, named: NamedApiKey | undefined): ModelSettingsProblem {
  if (settings.base_url !== undefined) return { path: ['base_url'], message: 'cannot be set with api_key_env' };
  if (!named) return { path: ['api_key_env'], message: `${env} was not set when the host started` };
  return { path: ['api_key_env'], message: `${named.baseUrlEnv} is not set to an http(s) URL, and ${env} is only ever sent there` };
}

function workflowEndpoint(defName: string, baseUrl: string, connection: OpenAiCompatibleConnection): Endpoint {
  if (!connection.allowWorkflowBaseUrl) {
    throw new AppError(
      'BOT_ERR_AI_BASE_URL_FORBIDDEN',
      `Model "${defName}" sets settings.base_url, which this host does not allow (BOT_AI_ALLOW_WORKFLOW_BASE_URL is off): use BOT_AI_BASE_URL, or api_key_env with BOT_AI_BASE_URL_<NAME>`,
      { model: defName },
    );
  }
  // An address the workflow chose gets no key: the keys belong to the operator's URLs.
  return { baseURL: baseUrl, apiKey: undefined };
}

/**
 * Strict JSON Schema mode (the provider's default) makes OpenAI reject any schema with an
 * optional property, which workflow schemas often have; the actions validate every object
 * against the schema themselves, so the looser mode loses nothing.
 */
async function nonStrictSchemas({ params }: { params: Parameters<LanguageModelV4['doGenerate']>[0] }) {
  const own = params.providerOptions?.['openaiCompatible'] ?? {};
  return { ...params, providerOptions: { ...params.providerOptions, openaiCompatible: { strictJsonSchema: false, ...own } } };
}
