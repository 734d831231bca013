import { wrapLanguageModel, type LanguageModel } from 'ai';
import type { Config } from '../../config/config.schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { TaskDef, WorkflowDocument } from '../document/workflow-document.ts';
import type { ModelResolver } from '../runtime/action.ts';
import type { LanguageModelV4 } from './language-model-types.ts';
import { parseModelSettings, type ModelSettings } from './model-settings.ts';
import type { NamedApiKey } from '../../config/named-api-keys.ts';
import { OfflineLanguageModel } from './offline/offline-language-model.ts';
import { createOpenAiCompatibleModel, type OpenAiCompatibleConnection } from './openai-compatible-model.ts';
import { callTimeoutMiddleware } from './call-timeout-middleware.ts';
import { retryMiddleware } from './retry-middleware.ts';

export interface ModelResolverOptions {
  config: Pick<
    Config,
    'BOT_AI_BASE_URL' | 'BOT_AI_API_KEY' | 'BOT_AI_ALLOW_WORKFLOW_BASE_URL' | 'BOT_AI_REQUEST_TIMEOUT_MS' | 'BOT_AI_MAX_RETRIES'
  >;
  /** From `readNamedApiKeys(process.env)` at start: each key with the URL it is bound to. */
  namedApiKeys: ReadonlyMap<string, NamedApiKey>;
}

/**
 * Resolves a task's model (its own `bindings.model`, else the workflow's) to an AI SDK model
 * with the configured retries and time limit on every call. Models are built once per distinct model
 * settings and cached, so every run of every workflow using the same def shares one client.
 *
 * @example
 * const models = createModelResolver({ config, namedApiKeys: readNamedApiKeys(process.env) });
 * const model = models.modelFor(task, document);
 */
export function createModelResolver(options: ModelResolverOptions): ModelResolver {
  const cache = new Map<string, LanguageModel>();
  const connection: OpenAiCompatibleConnection = {
    baseUrl: options.config.BOT_AI_BASE_URL,
    apiKey: options.config.BOT_AI_API_KEY,
    namedApiKeys: options.namedApiKeys,
    allowWorkflowBaseUrl: options.config.BOT_AI_ALLOW_WORKFLOW_BASE_URL,
  };
  return {
    modelFor(task: TaskDef, document: WorkflowDocument): LanguageModel {
      const { defName, settings } = boundModel(task, document);
      // Parsed settings are strict, so equal entries mean the same model and connection.
      const key = JSON.stringify(Object.entries(settings).sort());
      let model = cache.get(key);
      if (!model) {
        model = wrapLanguageModel({
          model: buildModel(defName, settings, connection),
          // Outermost first: each retry is a new call, with its own time limit.
          middleware: [retryMiddleware(options.config.BOT_AI_MAX_RETRIES), callTimeoutMiddleware(options.config.BOT_AI_REQUEST_TIMEOUT_MS)],
        });
        cache.set(key, model);
      }
      return model;
    },
  };
}

function boundModel(task: TaskDef, document: WorkflowDocument): { defName: string; settings: ModelSettings } {
  const defName = task.bindings?.model ?? document.bindings?.model;
  if (!defName) {
    throw new AppError('BOT_ERR_AI_MODEL_UNBOUND', 'The AI task has no model: bind one with bindings.model on the task or the workflow');
  }
  const def = Object.hasOwn(document.defs, defName) ? document.defs[defName] : undefined;
  if (def?.kind !== 'model') {
    throw new AppError('BOT_ERR_AI_MODEL_UNBOUND', `The model binding "${defName}" names no kind: model def`, { model: defName });
  }
  return { defName, settings: parseModelSettings(defName, def.settings) };
}

function buildModel(defName: string, settings: ModelSettings, connection: OpenAiCompatibleConnection): LanguageModelV4 {
  switch (settings.provider) {
    case 'offline':
      return new OfflineLanguageModel(settings.model_id);
    case 'openai-compatible':
      return createOpenAiCompatibleModel(defName, settings, connection);
  }
}
