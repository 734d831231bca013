import { isIP } from 'node:net';
import { addAbortSignal } from 'node:stream';
import type { EgressRequest, EgressResponse } from '@bot-ai/api';
import { Agent, type Dispatcher } from 'undici';
import { innermostCause } from '../errors/cause-chain.ts';
import { egressRuleFor, type EgressAllowance, type EgressRule } from './egress-allowance.ts';
import { egressError, findEgressError } from './egress-error.ts';
import { isBadPort } from './bad-ports.ts';
import { decodedBody, hasBody } from './decode-body.ts';
import { fetchHeaderPairs, withFetchDefaults } from './fetch-headers.ts';
import { firstHop, type EgressHop } from './egress-hop.ts';
import type { EgressLimits } from './egress-limits.ts';
import { guardedLookup, resolveWithSystem, type Resolve } from './guarded-lookup.ts';
import { isPublicAddress } from './is-public-address.ts';
import { effectivePort, isSelfAddress, type EgressSelf } from './egress-self.ts';
import { discardBody, readLimitedBody } from './read-limited-body.ts';
import { isRedirectStatus, redirectHop } from './redirect-hop.ts';

export interface EgressClientOptions {
  limits: EgressLimits;
  /** Name resolution; default the system's. Tests point names at a local listener. */
  resolve?: Resolve;
  /** Which addresses count as public; default {@link isPublicAddress}. Only tests replace it. */
  isPublicAddress?: (address: string) => boolean;
  /**
   * The host's own HTTP endpoint, refused whatever the rules allow (`BOT_ERR_EGRESS_HOST_SELF`);
   * absent, it is not checked (BOT_EGRESS_ALLOW_SELF, or a host that does not listen).
   */
  self?: EgressSelf;
}

/**
 * Performs plugins' HTTP requests under the egress rules: every hop, redirects included, must be
 * allowed (a declared host on a public address, or an operator's `x-egress` origin on any
 * address), never the host's own HTTP port on an address of its own, and the whole exchange is
 * bounded in time and size. Two connection pools, one per rule, so a socket opened to any address
 * for an operator's origin is never reused for a declared host; and two more for hops to the
 * host's own port, whose name resolution refuses the host's addresses (a lookup is not told the
 * port, and a redirect or a DNS answer can lead there as well as the URL). Refusals are AppErrors
 * with `BOT_ERR_EGRESS_*` codes.
 * @example
 * const client = new EgressClient({ limits: egressLimitsFrom(config) });
 * const answer = await client.perform({ url, method: 'GET', headers: [] }, { hosts: ['api.telegram.org'], origins: [] });
 */
export class EgressClient {
  readonly #limits: EgressLimits;
  readonly #isPublic: (address: string) => boolean;
  readonly #agents: Record<EgressRule, Agent>;
  readonly #self: EgressSelf | undefined;
  /** For hops to the host's own port: the same rules, and none of the host's addresses. */
  readonly #selfPortAgents: Record<EgressRule, Agent> | undefined;

  constructor(options: EgressClientOptions) {
    const resolve = options.resolve ?? resolveWithSystem;
    this.#limits = options.limits;
    this.#isPublic = options.isPublicAddress ?? isPublicAddress;
    this.#agents = {
      'public-address': new Agent({ connect: { lookup: guardedLookup(resolve, this.#isPublic) } }),
      'any-address': new Agent({ connect: { lookup: guardedLookup(resolve, () => true) } }),
    };
    const self = options.self;
    this.#self = self;
    if (self) {
      const isSelf = (address: string) => isSelfAddress(address, self.listenHost);
      this.#selfPortAgents = {
        'public-address': new Agent({ connect: { lookup: guardedLookup(resolve, this.#isPublic, isSelf) } }),
        'any-address': new Agent({ connect: { lookup: guardedLookup(resolve, () => true, isSelf) } }),
      };
    }
  }

  /** One request, to its end: the host's answer as plain data, or a coded refusal. */
  async perform(request: EgressRequest, allowance: EgressAllowance): Promise<EgressResponse> {
    // Whole milliseconds: AbortSignal.timeout refuses a fraction.
    const timeoutMs = Math.ceil(Math.min(this.#limits.timeoutMs, positiveOr(request.timeoutMs, Number.POSITIVE_INFINITY)));
    const signal = AbortSignal.timeout(timeoutMs);
    let hop: EgressHop | undefined;
    try {
      hop = firstHop(request, this.#limits.maxRequestBytes);
      return await this.#follow(hop, request.redirect ?? 'follow', allowance, signal);
    } catch (error) {
      throw asEgressError(error, signal, timeoutMs, hop?.url.origin);
    }
  }

  /** Closes the connection pools once their requests are done. */
  async close(): Promise<void> {
    const agents = [...Object.values(this.#agents), ...Object.values(this.#selfPortAgents ?? {})];
    await Promise.all(agents.map((agent) => agent.close()));
  }

  async #follow(first: EgressHop, mode: string, allowance: EgressAllowance, signal: AbortSignal): Promise<EgressResponse> {
    let hop = first;
    for (let redirects = 0; ; redirects++) {
      const response = await this.#send(hop, this.#ruleFor(hop, allowance, redirects), signal);
      // Repeated, the values are joined as fetch joins them, and the result must still parse; an
      // empty one leads, as in fetch, back to the same URL.
      const locations = isRedirectStatus(response.statusCode) ? response.headers.location : undefined;
      const location = locations === undefined ? undefined : [locations].flat().join(', ');
      if (location === undefined || mode === 'manual') return this.#answer(response, hop, redirects > 0, signal);
      discardBody(response.body);
      if (mode === 'error') throw egressError('BOT_ERR_EGRESS_REDIRECT_REFUSED', `${hop.url.origin} redirected, and the request asked for redirect: 'error'`);
      if (redirects >= this.#limits.maxRedirects) {
        throw egressError('BOT_ERR_EGRESS_TOO_MANY_REDIRECTS', `More than ${this.#limits.maxRedirects} redirects, the last from ${hop.url.origin}`);
      }
      hop = redirectHop(hop, response.statusCode, location);
    }
  }

  #ruleFor(hop: EgressHop, allowance: EgressAllowance, redirects: number): EgressRule {
    const rule = egressRuleFor(hop.url, allowance);
    if (rule && isBadPort(hop.url)) {
      const refusal = `${hop.url.origin} is on port ${hop.url.port}, where fetch never sends HTTP (mail, chat, file services)`;
      throw egressError(redirects > 0 ? 'BOT_ERR_EGRESS_REDIRECT_REFUSED' : 'BOT_ERR_EGRESS_HOST_NOT_ALLOWED', refusal);
    }
    if (rule) return rule;
    if (redirects > 0) throw egressError('BOT_ERR_EGRESS_REDIRECT_REFUSED', `A redirect led to ${hop.url.origin}, which this channel may not reach`);
    throw egressError(
      'BOT_ERR_EGRESS_HOST_NOT_ALLOWED',
      `${hop.url.origin} is neither a host the package declares in bot.egress nor the origin of an x-egress setting of the source`,
    );
  }

  #send(hop: EgressHop, rule: EgressRule, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    // A literal address skips name resolution, so the lookup's check would never run on it.
    const literal = hop.url.hostname.replace(/^\[|\]$/g, '');
    const toSelfPort = this.#self !== undefined && effectivePort(hop.url) === this.#self.port();
    if (toSelfPort && isIP(literal) !== 0 && isSelfAddress(literal, this.#self!.listenHost)) {
      throw egressError('BOT_ERR_EGRESS_HOST_SELF', `${hop.url.origin} is the host itself: its own HTTP port on an address of its own`);
    }
    if (rule === 'public-address' && isIP(literal) !== 0 && !this.#isPublic(literal)) {
      throw egressError('BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC', `${literal} is not a public address`);
    }
    // undici's `request`, not `fetch`: the same pool and wire for a third of the CPU, since
    // `fetch`'s web streams and Request/Response objects cost more than the send itself. What
    // `fetch` did besides is done here: its default headers, its blocked ports, its decoding.
    return (toSelfPort ? this.#selfPortAgents! : this.#agents)[rule].request({
      origin: hop.url.origin,
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method,
      headers: withFetchDefaults(hop.headers, hop.url),
      body: hop.body ?? null,
      signal,
    });
  }

  async #answer(response: Dispatcher.ResponseData, hop: EgressHop, redirected: boolean, signal: AbortSignal): Promise<EgressResponse> {
    let body: Uint8Array = new Uint8Array(0);
    // A HEAD or 304 answer's content-length is the resource's, not a body's: there is none.
    if (!hasBody(hop.method, response.statusCode)) discardBody(response.body);
    else {
      // content-length counts the bytes as they come, before decoding: over the limit, they are too many already.
      const declared = Number(headerValue(response.headers['content-length']) ?? Number.NaN);
      // The time limit covers decoding too: undici stops watching the signal once the raw body has
      // ended, and stacked codings of empty blocks can decode for hours into nothing.
      const decoded = addAbortSignal(signal, decodeOrDiscard(response));
      body = await readLimitedBody(decoded, declared, this.#limits.maxResponseBytes, hop.url.origin);
    }
    return { status: response.statusCode, statusText: response.statusText, headers: fetchHeaderPairs(response.headers), body, url: hop.url.href, redirected };
  }
}

function decodeOrDiscard(response: Dispatcher.ResponseData) {
  try {
    return decodedBody(response.body, response.headers['content-encoding']);
  } catch (error) {
    discardBody(response.body);
    throw error;
  }
}

/** The first value of a header that may be repeated. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function positiveOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && value > 0 ? value : fallback;
}

/** Our refusal when there is one in the chain; else the time limit, else a failure to reach the origin. */
function asEgressError(error: unknown, signal: AbortSignal, timeoutMs: number, origin: string | undefined): Error {
  const coded = findEgressError(error);
  if (coded) return coded;
  const where = origin ?? 'The destination';
  if (signal.aborted) return egressError('BOT_ERR_EGRESS_TIMEOUT', `${where} did not answer within ${timeoutMs} ms`, error);
  return egressError('BOT_ERR_EGRESS_FAILED', `${where} could not be reached: ${innermostMessage(error)}`, error);
}

/** `fetch failed` says nothing; its innermost cause does (`connect ECONNREFUSED 127.0.0.1:9`). */
function innermostMessage(error: unknown): string {
  const innermost = innermostCause(error, 9) as { message?: unknown } | undefined;
  return typeof innermost?.message === 'string' ? innermost.message : String(innermost);
}
