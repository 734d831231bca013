import type { wrapLanguageModel } from 'ai';

/**
 * The provider interface that `ai` 7 calls (`LanguageModelV4` of `@ai-sdk/provider`). Taken from
 * `ai`'s own declarations so the host depends only on packages it declares; the offline model
 * implements it, and the middlewares here transform its call options.
 */
export type LanguageModelV4 = ReturnType<typeof wrapLanguageModel>;

/** What `ai` passes to a model for one call: the prompt, tools, response format, signal, … */
export type ModelCallOptions = Parameters<LanguageModelV4['doGenerate']>[0];

/** What a model returns from one non-streaming call. */
export type ModelGenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;

/** What a model returns from one streaming call. */
export type ModelStreamResult = Awaited<ReturnType<LanguageModelV4['doStream']>>;

/** One message of the provider-level prompt (system, user, assistant or tool). */
export type ModelPromptMessage = ModelCallOptions['prompt'][number];

/** One part of a model's answer: text, a tool call, … */
export type ModelContent = ModelGenerateResult['content'][number];

/** A tool as a model sees it: a function tool (name, description, JSON Schema input) or a provider tool. */
export type ModelTool = NonNullable<ModelCallOptions['tools']>[number];
