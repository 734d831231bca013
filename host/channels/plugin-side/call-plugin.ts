import { messageOf, SandboxError } from './sandbox-error.ts';

/**
 * Worker side: runs one plugin method and wraps what it throws in `BOT_ERR_PLUGIN_THREW`, keeping
 * the plugin's error (its `name`, `message`, `code`) as the cause.
 * @example const result = await callPlugin('doSendMessage', () => handler.doSendMessage(event, envelope, options));
 */
export async function callPlugin<T>(method: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw pluginThrew(method, error);
  }
}

export function pluginThrew(method: string, error: unknown): SandboxError {
  const name = error instanceof Error ? error.name : typeof error;
  return new SandboxError('BOT_ERR_PLUGIN_THREW', `The channel's ${method}() threw ${name}: ${messageOf(error)}`, { cause: error });
}
