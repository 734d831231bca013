import { egressHostMatches } from './egress-host-name.ts';

/** Where one plugin's request may go: its package's declared hosts and its source's endpoints. */
export interface EgressAllowance {
  /** Host names (or `*.domain` patterns) from the package's `bot.egress`, lower-case: any http(s) port, public addresses only. */
  hosts: readonly string[];
  /** Exact origins (`https://api.example:8443`) of the source's `x-egress` settings: any address. */
  origins: readonly string[];
}

/**
 * How a destination is allowed: `any-address` for an operator's `x-egress` origin (which may
 * point anywhere, loopback included), `public-address` for a host the package declares (its
 * addresses are checked), undefined when it is not allowed at all.
 */
export type EgressRule = 'any-address' | 'public-address';

/**
 * The rule that lets `url` through, if any. An origin matches exactly (scheme, host and port);
 * a declared host matches the name alone (a `*.domain` pattern, any name below the domain), on
 * http or https and any port.
 * @example egressRuleFor(new URL('https://api.telegram.org/bot1/getMe'), { hosts: ['api.telegram.org'], origins: [] }) // 'public-address'
 */
export function egressRuleFor(url: URL, allowance: EgressAllowance): EgressRule | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (allowance.origins.includes(url.origin)) return 'any-address';
  const host = url.hostname.replace(/\.$/, '');
  if (allowance.hosts.some((pattern) => egressHostMatches(host, pattern))) return 'public-address';
  return undefined;
}
