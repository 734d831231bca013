import { isIP, isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Config } from '../config/config.schema.ts';

/**
 * The host's own HTTP endpoint, which a plugin's `fetch` must not reach: behind it are the
 * admin API, `/metrics` and the webhooks of every source, and a request from the host's own
 * machine may be trusted there more than one from outside. An `x-egress` origin may point at
 * loopback (a local platform, a mock), so the origin rules alone do not keep a plugin out.
 */
export interface EgressSelf {
  /** The address the HTTP server listens on (HOST). */
  listenHost: string;
  /** The port it listens on; undefined, or 0, before it listens. */
  port(): number | undefined;
}

/**
 * What `EgressClient` must refuse, from the configuration: nothing when
 * `BOT_EGRESS_ALLOW_SELF` is on, else the host's HTTP port on any address of its own.
 * @example const self = egressSelfFrom(config, () => listeningPort);
 */
export function egressSelfFrom(config: Pick<Config, 'HOST' | 'BOT_EGRESS_ALLOW_SELF'>, port: () => number | undefined): EgressSelf | undefined {
  return config.BOT_EGRESS_ALLOW_SELF ? undefined : { listenHost: config.HOST, port };
}

/** The port a URL connects to: its own, else its scheme's. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * True for an address that reaches this machine: loopback, unspecified (which connects to the
 * machine itself), the listen address, or an address of one of its interfaces (read at each
 * call: interfaces come and go). An IPv4-mapped IPv6 address is judged by its IPv4 address.
 * @example isSelfAddress('::ffff:127.0.0.1', '0.0.0.0') // true
 */
export function isSelfAddress(address: string, listenHost: string): boolean {
  const bare = plain(address);
  if (isIP(bare) === 0) return false;
  if (isIPv4(bare) ? bare.startsWith('127.') || bare === '0.0.0.0' : bare === '::1' || bare === '::') return true;
  if (bare === plain(listenHost)) return true;
  return Object.values(networkInterfaces()).some((entries) => entries?.some((entry) => plain(entry.address) === bare));
}

/** Lower case, no brackets or zone, IPv4-mapped IPv6 as its IPv4 address, IPv6 in its short form. */
function plain(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (isIP(bare) !== 6) return bare;
  const short = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(short);
  if (!mapped) return short;
  const [high, low] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
