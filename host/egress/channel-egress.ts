import type { EgressRequest, EgressResponse } from '@bot-ai/api';
import { codesWhere } from '../errors/codes-where.ts';
import { LineRateLimit } from '../logging/line-rate-limit.ts';
import type { EgressAllowance } from './egress-allowance.ts';
import type { EgressClient } from './egress-client.ts';
import { egressError } from './egress-error.ts';
import { xEgressKeys, xEgressOrigins } from './x-egress-origins.ts';

/** What the egress rules of a channel are read from: the registry's entry (manifest, schema). */
export interface EgressChannels {
  get(name: string): { egress: readonly string[]; description: { settingsJsonSchema: Record<string, unknown> } } | undefined;
}

/** A source as its egress rules read it: a SourceRow fits, so the cached row serves as it is. */
export interface EgressSource {
  channel: string;
  settings: Record<string, unknown>;
  /** The settings an operator granted egress with; null counts every `x-egress` setting (xEgressOrigins). */
  egress_grants: readonly string[] | null;
}

/** Sources by id, as stored (the source store); throws `BOT_ERR_SOURCE_NOT_FOUND` when unknown. */
export interface EgressSources {
  /** The source's channel, settings and grants; undefined (or a BOT_ERR_SOURCE_NOT_FOUND rejection) when there is none. */
  get(id: string): Promise<EgressSource | undefined>;
}

export interface ChannelEgressDeps {
  client: Pick<EgressClient, 'perform'>;
  channels: EgressChannels;
  sources: EgressSources;
  /** Counts a refused or failed request (`bot_egress_refused_total`). */
  countRefused(channel: string, code: string): void;
  logger: { warn(fields: Record<string, unknown>, message: string): void };
}

/** Refusals of policy, worth a log line; failures to reach a platform are the plugin's to report. */
const LOGGED_CODES = codesWhere('egressRefusal');
/**
 * Refusal lines a second per channel: a plugin can ask for refused requests as fast as the host
 * answers them, and each line is the host's own; past this they are counted (the metric keeps
 * every one) and reported in one line a second.
 */
const MAX_REFUSAL_LINES_PER_SECOND = 20;

/**
 * The `fetch` host service of each channel: it works out what the asking channel may reach (the
 * hosts its package declares, and the `x-egress` origins an operator granted on the source the
 * call serves, if that source is one of this channel's) and has the client perform the request.
 * Nothing the plugin sends widens that: the request's `sourceId` is the host's by the time it
 * gets here (a runner's is its call's source, runner-process.ts; a host thread's, a source a call
 * in flight serves), and a source of another channel, or an unknown one, adds no origin.
 * @example const services = { ...attachments.hostServicesFor(name), fetch: egress.fetchFor(name) };
 */
export class ChannelEgress {
  readonly #deps: ChannelEgressDeps;
  /** One per channel name (a bounded set: the registered channels). */
  readonly #refusalLimits = new Map<string, LineRateLimit>();

  constructor(deps: ChannelEgressDeps) {
    this.#deps = deps;
  }

  /** `channelName` answers once the plugin has described itself; before that nothing is allowed. */
  fetchFor(channelName: () => string | undefined): (request: EgressRequest) => Promise<EgressResponse> {
    return (request) => this.#perform(channelName(), request, true);
  }

  /**
   * A request the host makes itself on behalf of `channel` (an inbound file's download), under
   * exactly the rules its plugin's `fetch` has for `request.sourceId`, counted the same way but
   * not logged here: the caller logs the failure once, with what it was for.
   * @example const answer = await egress.performFor('telegram', { url, method: 'GET', headers: [], sourceId });
   */
  performFor(channel: string, request: EgressRequest): Promise<EgressResponse> {
    return this.#perform(channel, request, false);
  }

  async #perform(channel: string | undefined, request: EgressRequest, logRefusals: boolean): Promise<EgressResponse> {
    try {
      return await this.#deps.client.perform(request, await this.#allowance(channel, request.sourceId));
    } catch (error) {
      this.#report(channel, request, error, logRefusals);
      throw error;
    }
  }

  async #allowance(channel: string | undefined, sourceId: unknown): Promise<EgressAllowance> {
    const entry = channel === undefined ? undefined : this.#deps.channels.get(channel);
    if (!entry) return { hosts: [], origins: [] };
    const schema = entry.description.settingsJsonSchema;
    // Most channels mark no endpoint setting: then their sends cost no source query.
    if (typeof sourceId !== 'string' || xEgressKeys(schema).length === 0) return { hosts: entry.egress, origins: [] };
    const source = await this.#source(sourceId);
    const origins = source && source.channel === channel ? xEgressOrigins(schema, source.settings, source.egress_grants) : [];
    return { hosts: entry.egress, origins };
  }

  async #source(id: string): Promise<EgressSource | undefined> {
    try {
      return await this.#deps.sources.get(id);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'BOT_ERR_SOURCE_NOT_FOUND') return undefined;
      throw egressError('BOT_ERR_EGRESS_FAILED', 'The egress rules of the source could not be read', error);
    }
  }

  #report(channel: string | undefined, request: EgressRequest, error: unknown, log: boolean): void {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') return;
    this.#deps.countRefused(channel ?? '', code);
    // The origin only: paths and queries carry tokens.
    if (!log || !LOGGED_CODES.has(code) || !this.#refusalLines(channel ?? '').allow()) return;
    this.#deps.logger.warn({ channel, code, origin: originOf(request.url) }, 'egress refused');
  }

  #refusalLines(channel: string): LineRateLimit {
    let limit = this.#refusalLimits.get(channel);
    if (!limit) {
      limit = new LineRateLimit(MAX_REFUSAL_LINES_PER_SECOND, (dropped) =>
        this.#deps.logger.warn({ channel, dropped }, `${dropped} egress refusal lines dropped (more than ${MAX_REFUSAL_LINES_PER_SECOND} a second)`),
      );
      this.#refusalLimits.set(channel, limit);
    }
    return limit;
  }
}

function originOf(url: unknown): string {
  return typeof url === 'string' && URL.canParse(url) ? new URL(url).origin : '(not a URL)';
}
