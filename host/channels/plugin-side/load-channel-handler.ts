/**
 * Worker side: constructs the checked handler class and reads what it declares (name, settings
 * schema as JSON Schema, capabilities, whether it has a connect step). Each failure is a SandboxError with its own code.
 */
import {
  applyExtensionInjections,
  channelCapabilitiesSchema,
  type ChannelCapabilities,
  type ChannelHandler,
  type HttpChannelHandler,
  type WebSocketChannelHandler,
} from '@bot-ai/api';
import { z } from 'zod';
import { callPlugin } from './call-plugin.ts';
import { checkChannelClass } from './check-channel-class.ts';
import { isConnectable } from './is-connectable.ts';
import type { ChannelDescription } from './protocol.ts';
import { messageOf, SandboxError } from './sandbox-error.ts';

/** A constructed handler with its description, narrowed by kind. */
export type LoadedHandler =
  | { kind: 'http'; handler: HttpChannelHandler; description: ChannelDescription }
  | { kind: 'websocket'; handler: WebSocketChannelHandler; description: ChannelDescription };

/** Imports, checks and constructs the channel in `fileUrl`, then describes it. */
export async function loadChannelHandler(fileUrl: string): Promise<LoadedHandler> {
  const { kind, construct } = await checkChannelClass(fileUrl);
  const handler = constructHandler(construct);
  const settingsJsonSchema = toSettingsJsonSchema(handler.settingsSchema, construct.name);
  const name = checkName(handler.name, construct.name);
  const capabilities = await readCapabilities(handler);
  const description: ChannelDescription = { kind, name, settingsJsonSchema, capabilities, connectable: kind === 'http' && isConnectable(handler) };
  return { kind, handler, description } as LoadedHandler;
}

function constructHandler(construct: new () => ChannelHandler): ChannelHandler {
  try {
    return applyExtensionInjections(new construct());
  } catch (error) {
    throw new SandboxError('BOT_ERR_PLUGIN_CONSTRUCT_FAILED', `Constructing ${construct.name} threw: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * The input side (what an operator types in) as draft-07, the dialect ajv validates by default;
 * an object schema is required because settings are an object.
 */
function toSettingsJsonSchema(schema: unknown, className: string): Record<string, unknown> {
  if (schema === undefined || schema === null) {
    throw new SandboxError('BOT_ERR_PLUGIN_NO_SETTINGS_SCHEMA', `${className} passes no settings schema to super()`);
  }
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = z.toJSONSchema(schema as z.ZodType, { io: 'input', target: 'draft-07' });
  } catch (error) {
    throw new SandboxError('BOT_ERR_PLUGIN_SETTINGS_SCHEMA_INVALID', `The settings schema of ${className} does not convert to JSON Schema: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (jsonSchema.type !== 'object') {
    throw new SandboxError('BOT_ERR_PLUGIN_SETTINGS_SCHEMA_INVALID', `The settings schema of ${className} is not an object schema`);
  }
  return jsonSchema;
}

function checkName(name: unknown, className: string): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new SandboxError('BOT_ERR_PLUGIN_NO_NAME', `${className} passes no channel name to super()`);
  }
  return name;
}

async function readCapabilities(handler: ChannelHandler): Promise<ChannelCapabilities> {
  const capabilities = await callPlugin('getCapabilities', () => handler.getCapabilities());
  const parsed = channelCapabilitiesSchema.safeParse(capabilities);
  if (!parsed.success) {
    throw new SandboxError('BOT_ERR_PLUGIN_INVALID_RESULT', `getCapabilities() returned invalid capabilities: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
