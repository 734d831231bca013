import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { wrapLanguageModel } from 'ai';
import { AppError } from '../../errors/app-error.ts';
import type { LanguageModelV4 } from './language-model-types.ts';
import type { OpenAiCompatibleSettings } from './model-settings.ts';

/** Where `openai-compatible` models connect by default, and the keys they may use. */
export interface OpenAiCompatibleConnection {
  /** BOT_AI_BASE_URL */
  baseUrl: string | undefined;
  /** BOT_AI_API_KEY: only ever sent to `baseUrl`. */
  apiKey: string | undefined;
  /** BOT_AI_API_KEY_<NAME> variables, for `settings.api_key_env`. */
  namedApiKeys: ReadonlyMap<string, string>;
}

/**
 * A chat model of any OpenAI-compatible API (OpenAI, Ollama, vLLM, LM Studio, …): `POST
 * <base URL>/chat/completions` with a bearer key. The key is the one `settings.api_key_env`
 * names, else BOT_AI_API_KEY when the model talks to BOT_AI_BASE_URL, else none (local servers
 * need none) — so a workflow that points `base_url` elsewhere cannot carry the default key there.
 */
export function createOpenAiCompatibleModel(
  defName: string,
  settings: OpenAiCompatibleSettings,
  connection: OpenAiCompatibleConnection,
): LanguageModelV4 {
  const baseURL = settings.base_url ?? connection.baseUrl;
  if (!baseURL) {
    throw new AppError(
      'BOT_ERR_AI_BASE_URL_MISSING',
      `Model "${defName}" uses the openai-compatible provider, but no base URL is configured: set BOT_AI_BASE_URL or settings.base_url`,
      { model: defName },
    );
  }
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL,
    apiKey: apiKeyFor(defName, settings, connection, baseURL),
    supportsStructuredOutputs: true,
  });
  return wrapLanguageModel({ model: provider.chatModel(settings.model_id), middleware: { transformParams: nonStrictSchemas } });
}

function apiKeyFor(
  defName: string,
  settings: OpenAiCompatibleSettings,
  connection: OpenAiCompatibleConnection,
  baseURL: string,
): string | undefined {
  if (settings.api_key_env) {
    const key = connection.namedApiKeys.get(settings.api_key_env);
    if (key) return key;
    throw new AppError(
      'BOT_ERR_AI_MODEL_SETTINGS_INVALID',
      `Model "${defName}" names ${settings.api_key_env} in api_key_env, but that variable was not set when the host started`,
      { model: defName, problems: [{ path: ['api_key_env'], message: 'is not set' }] },
    );
  }
  return baseURL === connection.baseUrl ? connection.apiKey : undefined;
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
