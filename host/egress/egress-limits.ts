import { configSchema, type Config } from '../config/config.schema.ts';

/** The bounds of every request the host performs for a plugin. */
export interface EgressLimits {
  /** Whole request, redirects and body included. */
  timeoutMs: number;
  maxRequestBytes: number;
  /** Decoded body bytes; the transfer stops past it. */
  maxResponseBytes: number;
  /** Redirects followed; one more fails. */
  maxRedirects: number;
}

type EgressConfig = Pick<Config, 'BOT_EGRESS_TIMEOUT_MS' | 'BOT_EGRESS_MAX_REQUEST_BYTES' | 'BOT_EGRESS_MAX_RESPONSE_BYTES' | 'BOT_EGRESS_MAX_REDIRECTS'>;

/**
 * The limits of the `BOT_EGRESS_*` settings; without a config, their defaults.
 * @example const limits = egressLimitsFrom(config); // { timeoutMs: 10000, … }
 */
export function egressLimitsFrom(config: EgressConfig = configSchema.parse({})): EgressLimits {
  return {
    timeoutMs: config.BOT_EGRESS_TIMEOUT_MS,
    maxRequestBytes: config.BOT_EGRESS_MAX_REQUEST_BYTES,
    maxResponseBytes: config.BOT_EGRESS_MAX_RESPONSE_BYTES,
    maxRedirects: config.BOT_EGRESS_MAX_REDIRECTS,
  };
}
