import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { egressError } from './egress-error.ts';

/** Resolves a host name to its addresses; injected so tests can point names at a local listener. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

/**
 * The system resolver (what `net.connect` uses by default), every address in its own order.
 * @example await resolveWithSystem('localhost') // [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]
 */
export const resolveWithSystem: Resolve = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/**
 * A `lookup` for `net.connect`/`tls.connect` that resolves the name once and hands the socket
 * exactly the addresses it checked, so what is checked is what is connected to: a name cannot
 * answer a public address to the check and a private one to the connection (DNS rebinding).
 * The socket still sends the name as Host and TLS server name. A name with any address that
 * `admits` refuses is refused whole (`BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC`), and so is one with
 * any address `isSelf` says is the host's own (`BOT_ERR_EGRESS_HOST_SELF`; given only to the
 * connections to the host's own port, since a lookup is not told the port).
 * @example new Agent({ connect: { lookup: guardedLookup(resolveWithSystem, isPublicAddress) } })
 */
export function guardedLookup(resolve: Resolve, admits: (address: string) => boolean, isSelf?: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, resolve, admits, isSelf).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        const [first] = wanted;
        if (!first) return callback(asErrno(egressError('BOT_ERR_EGRESS_FAILED', `${hostname} has no IPv${options.family} address`)), '');
        if (options.all) return callback(null, wanted);
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(asErrno(error), ''),
    );
  };
}

async function checkedAddresses(hostname: string, resolve: Resolve, admits: (address: string) => boolean, isSelf?: (address: string) => boolean): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(hostname);
  } catch (error) {
    throw egressError('BOT_ERR_EGRESS_FAILED', `${hostname} could not be resolved`, error);
  }
  if (addresses.length === 0) throw egressError('BOT_ERR_EGRESS_FAILED', `${hostname} resolved to no address`);
  const self = isSelf && addresses.find((entry) => isSelf(entry.address));
  if (self) throw egressError('BOT_ERR_EGRESS_HOST_SELF', `${hostname} resolves to ${self.address}, an address of the host itself, on its own HTTP port`);
  const refused = addresses.find((entry) => !admits(entry.address));
  if (refused) throw egressError('BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC', `${hostname} resolves to ${refused.address}, which is not a public address`);
  return addresses;
}

function asErrno(error: unknown): NodeJS.ErrnoException {
  return error as NodeJS.ErrnoException;
}
