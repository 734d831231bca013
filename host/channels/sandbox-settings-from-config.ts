import path from 'node:path';
import { configSchema } from '../config/config.schema.ts';
import type { ChannelRegistryOptions } from './create-channel-registry.ts';

type SandboxConfig = Pick<
  ReturnType<typeof configSchema.parse>,
  | 'BOT_SANDBOX_CALL_TIMEOUT_MS'
  | 'BOT_SANDBOX_START_TIMEOUT_MS'
  | 'BOT_SANDBOX_MAX_HEAP_MB'
  | 'BOT_SANDBOX_MAX_THREADS'
  | 'BOT_SANDBOX_MAX_QUEUE'
  | 'BOT_SANDBOX_IDLE_TIMEOUT_MS'
  | 'BOT_ISOLATION'
  | 'BOT_SANDBOX_MAX_RSS_MB'
  | 'BOT_SANDBOX_MAX_IDLE_CPU_PERCENT'
  | 'BOT_SANDBOX_WATCHDOG_INTERVAL_MS'
  | 'BOT_SANDBOX_RESTART_DELAY_MS'
  | 'BOT_SANDBOX_RESTART_MAX_DELAY_MS'
  | 'BOT_DATA_DIR'
>;

/** Consecutive watchdog looks over the idle CPU limit before a runner is stopped. */
const IDLE_CPU_STRIKES = 3;

/** The sandbox limits of the `BOT_SANDBOX_*` and `BOT_ISOLATION` settings; without a config, their defaults. */
export function sandboxSettingsFrom(config: SandboxConfig = configSchema.parse({})): ChannelRegistryOptions['sandbox'] {
  return {
    callTimeoutMs: config.BOT_SANDBOX_CALL_TIMEOUT_MS,
    startTimeoutMs: config.BOT_SANDBOX_START_TIMEOUT_MS,
    maxHeapMb: config.BOT_SANDBOX_MAX_HEAP_MB,
    maxThreads: config.BOT_SANDBOX_MAX_THREADS,
    maxQueue: config.BOT_SANDBOX_MAX_QUEUE,
    idleTimeoutMs: config.BOT_SANDBOX_IDLE_TIMEOUT_MS,
    isolation: {
      mode: config.BOT_ISOLATION,
      limits: {
        maxRssMb: config.BOT_SANDBOX_MAX_RSS_MB,
        maxIdleCpuPercent: config.BOT_SANDBOX_MAX_IDLE_CPU_PERCENT,
        idleCpuStrikes: IDLE_CPU_STRIKES,
        intervalMs: config.BOT_SANDBOX_WATCHDOG_INTERVAL_MS,
      },
      restartDelay: { initialMs: config.BOT_SANDBOX_RESTART_DELAY_MS, maxMs: config.BOT_SANDBOX_RESTART_MAX_DELAY_MS },
      // The data directory holds the host's secrets and database: no link may lead a runner there.
      privatePaths: [path.resolve(config.BOT_DATA_DIR)],
    },
  };
}
