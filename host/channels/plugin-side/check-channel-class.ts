/**
 * Worker side: imports a channel file and checks its default export before anything constructs
 * it. Every failure is a SandboxError with its own code; brands are read, never `instanceof`,
 * because a plugin may resolve its own copy of the SDK.
 */
import { CHANNEL_HANDLER_KIND, isInjectable, type ChannelHandler, type ChannelHandlerKind } from '@bot-ai/api';
import { messageOf, SandboxError } from './sandbox-error.ts';

/** A class the checks accepted: constructible without arguments, with the kind its base brands. */
export interface CheckedChannelClass {
  kind: ChannelHandlerKind;
  construct: new () => ChannelHandler;
}

/** Imports `fileUrl` (once per worker) and checks the default export is an injectable handler class. */
export async function checkChannelClass(fileUrl: string): Promise<CheckedChannelClass> {
  const exported = await importDefault(fileUrl);
  if (!isClass(exported)) {
    throw new SandboxError('BOT_ERR_PLUGIN_NOT_A_CLASS', `The default export of ${fileUrl} is a ${describeValue(exported)}, not a class`);
  }
  if (!isInjectable(exported)) {
    throw new SandboxError('BOT_ERR_PLUGIN_NOT_INJECTABLE', `Class ${exported.name} is not marked with Injectable()`);
  }
  const kind = (exported as { [CHANNEL_HANDLER_KIND]?: unknown })[CHANNEL_HANDLER_KIND];
  if (kind !== 'http' && kind !== 'websocket') {
    throw new SandboxError(
      'BOT_ERR_PLUGIN_WRONG_BASE_CLASS',
      `Class ${exported.name} extends neither HttpChannelHandler nor WebSocketChannelHandler`,
    );
  }
  return { kind, construct: exported as unknown as new () => ChannelHandler };
}

async function importDefault(fileUrl: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = await import(fileUrl);
  } catch (error) {
    throw new SandboxError('BOT_ERR_PLUGIN_IMPORT_FAILED', `Importing ${fileUrl} threw: ${messageOf(error)}`, { cause: error });
  }
  if (module.default === undefined) {
    throw new SandboxError('BOT_ERR_PLUGIN_NO_DEFAULT_EXPORT', `${fileUrl} has no default export`);
  }
  return module.default;
}

/** Class syntax only: the SDK base classes cannot be extended by ES5-style constructor functions. */
function isClass(value: unknown): value is abstract new (...args: never[]) => unknown {
  return typeof value === 'function' && Function.prototype.toString.call(value).startsWith('class');
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'function' ? 'function' : typeof value;
}
