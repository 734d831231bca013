import { configSchema } from '../config/config.schema.ts';
import type { ChannelRegistryOptions } from './create-channel-registry.ts';

type SandboxConfig = Pick<
  ReturnType<typeof configSchema.parse>,
  'BOT_SANDBOX_CALL_TIMEOUT_MS' | 'BOT_SANDBOX_MAX_HEAP_MB' | 'BOT_SANDBOX_MAX_THREADS' | 'BOT_SANDBOX_MAX_QUEUE' | 'BOT_SANDBOX_IDLE_TIMEOUT_MS'
>;

/** The sandbox limits of the `BOT_SANDBOX_*` settings; without a config, their defaults. */
export function sandboxSettingsFrom(config: SandboxConfig = configSchema.parse({})): ChannelRegistryOptions['sandbox'] {
  return {
    callTimeoutMs: config.BOT_SANDBOX_CALL_TIMEOUT_MS,
    maxHeapMb: config.BOT_SANDBOX_MAX_HEAP_MB,
    maxThreads: config.BOT_SANDBOX_MAX_THREADS,
    maxQueue: config.BOT_SANDBOX_MAX_QUEUE,
    idleTimeoutMs: config.BOT_SANDBOX_IDLE_TIMEOUT_MS,
  };
}
