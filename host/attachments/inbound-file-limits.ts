import { configSchema, type Config } from '../config/config.schema.ts';

const MIB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60_000;

/** The bounds of the files subscribers send that the host keeps. */
export interface InboundFileLimits {
  /** BOT_INBOUND_FILES_MAX_MB_PER_SOURCE, in bytes: the most a source's inbound files may take. */
  maxBytesPerSource: number;
  /** BOT_INBOUND_FILES_RETENTION_DAYS, in milliseconds: older inbound files are deleted. */
  retentionMs: number;
  /** BOT_MEMORY_SWEEP_INTERVAL_MS: time between the sweeps that delete them (and recount the quota). */
  sweepIntervalMs: number;
}

type InboundFileConfig = Pick<Config, 'BOT_INBOUND_FILES_MAX_MB_PER_SOURCE' | 'BOT_INBOUND_FILES_RETENTION_DAYS' | 'BOT_MEMORY_SWEEP_INTERVAL_MS'>;

/**
 * The limits of the `BOT_INBOUND_FILES_*` settings; without a config, their defaults.
 * @example const limits = inboundFileLimitsFrom(config); // { maxBytesPerSource: 1073741824, … }
 */
export function inboundFileLimitsFrom(config: InboundFileConfig = configSchema.parse({})): InboundFileLimits {
  return {
    maxBytesPerSource: config.BOT_INBOUND_FILES_MAX_MB_PER_SOURCE * MIB,
    retentionMs: config.BOT_INBOUND_FILES_RETENTION_DAYS * DAY_MS,
    sweepIntervalMs: config.BOT_MEMORY_SWEEP_INTERVAL_MS,
  };
}
