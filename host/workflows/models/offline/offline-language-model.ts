import type {
  LanguageModelV4,
  ModelCallOptions,
  ModelContent,
  ModelGenerateResult,
  ModelStreamResult,
} from '../language-model-types.ts';
import { exampleValue } from './example-value.ts';
import { nameInText, nameInValue, nameInWorkingMemory } from './find-name.ts';
import { memoryToolCall } from './memory-tool-call.ts';
import { offlineReply } from './offline-reply.ts';
import { answersToolResult, earlierToolInputs, lastUserText, systemText } from './prompt-reading.ts';

const NO_USAGE: ModelGenerateResult['usage'] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * The built-in `offline` provider: a deterministic model with no network, for the default
 * set-up, demos and tests. It implements the provider interface `ai` calls, so generation,
 * structured output and tool calls go through the real AI SDK code paths. It answers from the
 * prompt alone:
 * - the user gives a name ("my name is Ada") and `update_memory` is offered with a bound memory
 *   holding a name property → it calls the tool once to store the name;
 * - a JSON response format is asked for → an object valid for the schema (see `exampleValue`);
 * - otherwise → `Hi <name>! You said: "<last user message>"`, the name taken from the tool call it
 *   just made, the Working Memory block, or the message itself.
 *
 * @example
 * await generateText({ model: new OfflineLanguageModel('demo'), prompt: 'hello' }); // text: 'Hi! You said: "hello"'
 */
export class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'offline';
  readonly supportedUrls = {};
  #calls = 0;

  constructor(readonly modelId: string) {}

  async doGenerate(options: ModelCallOptions): Promise<ModelGenerateResult> {
    options.abortSignal?.throwIfAborted();
    const content = this.#answer(options);
    const calledTool = content.type === 'tool-call';
    return {
      content: [content],
      finishReason: { unified: calledTool ? 'tool-calls' : 'stop', raw: calledTool ? 'tool_calls' : 'stop' },
      usage: NO_USAGE,
      warnings: [],
    };
  }

  async doStream(options: ModelCallOptions): Promise<ModelStreamResult> {
    const result = await this.doGenerate(options);
    return { stream: streamOf(result) };
  }

  #answer({ prompt, tools, responseFormat }: ModelCallOptions): ModelContent {
    const text = lastUserText(prompt);
    const spokenName = nameInText(text);
    if (spokenName && !answersToolResult(prompt)) {
      const call = memoryToolCall(tools, spokenName, `offline-call-${++this.#calls}`);
      if (call) return call;
    }
    const name = nameInValue(earlierToolInputs(prompt, 'update_memory').toReversed()) ?? nameInWorkingMemory(systemText(prompt)) ?? spokenName;
    if (responseFormat?.type === 'json') {
      return { type: 'text', text: JSON.stringify(exampleValue(responseFormat.schema ?? { type: 'object' }, { text, name })) };
    }
    return { type: 'text', text: offlineReply({ text, name }) };
  }
}

/** The same answer as a stream of parts, for callers that stream. */
function streamOf(result: ModelGenerateResult): ModelStreamResult['stream'] {
  type Part = ModelStreamResult['stream'] extends ReadableStream<infer P> ? P : never;
  const parts: Part[] = [{ type: 'stream-start', warnings: [] }];
  for (const content of result.content) {
    if (content.type === 'text') {
      parts.push({ type: 'text-start', id: 'text' }, { type: 'text-delta', id: 'text', delta: content.text }, { type: 'text-end', id: 'text' });
    } else if (content.type === 'tool-call') {
      parts.push(content);
    }
  }
  parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return new ReadableStream<Part>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
