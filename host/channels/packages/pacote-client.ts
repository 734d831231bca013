import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError, isAppError } from '../../errors/app-error.ts';
import { plainHttpUrl } from '../../http/plain-http-url.ts';
import type { RegistrySettings } from './registry-settings.ts';
import type { RegistryKey } from './verify-registry-signatures.ts';

/** The options we give pacote and npm-registry-fetch: a plain object, as they take it. */
type RegistryOptions = Record<string, unknown>;

/** A tarball as pacote streams it (a Minipass stream). */
interface TarballStream extends AsyncIterable<Buffer> {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The parts of pacote we use; it ships no types. */
interface Pacote {
  manifest(spec: string, options: RegistryOptions): Promise<Record<string, unknown>>;
  tarball: {
    stream<T>(spec: string, handler: (stream: TarballStream) => Promise<T>, options: RegistryOptions): Promise<T>;
  };
}

/** npm-registry-fetch (pacote's HTTP client, with the same auth and options), for the keys endpoint. */
type RegistryFetch = (url: string, options: RegistryOptions) => Promise<{ json(): Promise<unknown> }>;

const require = createRequire(import.meta.url);
const pacote = require('pacote') as Pacote;
const registryFetch = require('npm-registry-fetch') as RegistryFetch;

const DEFAULT_TIMEOUT_MS = 60_000;

/** A version as the registry describes it, checked for the fields an install needs. */
export interface RegistryVersion {
  name: string;
  version: string;
  /** `dist.integrity` verbatim. */
  integrity: string;
  /** `dist.signatures` as sent. */
  signatures: unknown;
  publishedAt: string | undefined;
  /** The version's `dependencies` as the registry lists them (what a dependency of a package needs in turn). */
  dependencies: Record<string, string>;
}

/** What the install needs from a registry. */
export interface RegistryClient {
  /** The version of `name` that `fetchSpec` picks, as pacote (npm-pick-manifest) picks it. */
  version(name: string, fetchSpec: string): Promise<RegistryVersion>;
  /** The registry's signing keys, asked once per client; undefined when it publishes none. */
  signingKeys(): Promise<RegistryKey[] | undefined>;
  /** The version's tarball, checked against `dist.integrity` as it streams; at most `maxBytes`. */
  tarball(version: RegistryVersion, maxBytes: number): Promise<Buffer>;
}

/**
 * Runs `use` with a pacote-backed client of one registry, configured from `registry` alone: the
 * registry URL, its token and the time limit come from the argument, never from an `.npmrc`,
 * `npm_config_*` variables or npm's cache in the home folder (pacote reads none of them itself;
 * the cache is a fresh folder, removed afterwards). Every request shares one deadline.
 * @example const version = await withRegistryClient({ url: 'https://registry.npmjs.org/' }, (client) => client.version('bot-channel-telegram', '^2'))
 */
export async function withRegistryClient<T>(registry: RegistrySettings, use: (client: RegistryClient) => Promise<T>): Promise<T> {
  const base = registryUrl(registry.url);
  const timeoutMs = registry.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const deadline = AbortSignal.timeout(timeoutMs);
  const cache = await mkdtemp(path.join(tmpdir(), 'bot-channel-fetch-'));
  try {
    const options = registryOptions(base, registry.token, { cache, timeoutMs, signal: AbortSignal.any([controller.signal, deadline]) });
    return await use(new PacoteRegistryClient(base, options, () => (deadline.aborted ? timeoutMs : undefined)));
  } finally {
    controller.abort();
    await rm(cache, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

class PacoteRegistryClient implements RegistryClient {
  readonly #base: URL;
  readonly #options: RegistryOptions;
  readonly #timedOutAfter: () => number | undefined;
  /** One answer for a whole install: the package and every dependency are checked against the same keys. */
  #keys: Promise<RegistryKey[] | undefined> | undefined;

  constructor(base: URL, options: RegistryOptions, timedOutAfter: () => number | undefined) {
    this.#base = base;
    this.#options = options;
    this.#timedOutAfter = timedOutAfter;
  }

  async version(name: string, fetchSpec: string): Promise<RegistryVersion> {
    const manifest = await this.#call(`${name}@${fetchSpec}`, () => pacote.manifest(`${name}@${fetchSpec}`, this.#options));
    return registryVersionOf(manifest, name);
  }

  signingKeys(): Promise<RegistryKey[] | undefined> {
    this.#keys ??= this.#fetchSigningKeys();
    return this.#keys;
  }

  async #fetchSigningKeys(): Promise<RegistryKey[] | undefined> {
    const url = new URL('-/npm/v1/keys', this.#base).href;
    try {
      const response = await registryFetch(url, this.#options);
      const keys = keysOf(await response.json().catch(() => undefined));
      // A registry that answers for its keys but not with keys must not turn signature checks off.
      if (!keys) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', `The registry at ${this.#base} answered for its signing keys with something that is not a key list`);
      return keys.length > 0 ? keys : undefined;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      if (isAppError(error)) throw error;
      throw this.#failure(error, 'its signing keys');
    }
  }

  tarball(version: RegistryVersion, maxBytes: number): Promise<Buffer> {
    const id = `${version.name}@${version.version}`;
    const options = { ...this.#options, integrity: version.integrity };
    return this.#call(id, () => pacote.tarball.stream(id, (stream) => readAtMost(stream, maxBytes, id), options));
  }

  async #call<T>(subject: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw this.#failure(error, subject);
    }
  }

  /** Our code for a failure of pacote or the registry; messages name the package, never the token. */
  #failure(error: unknown, subject: string): AppError {
    if (isAppError(error)) return error;
    const timedOutAfter = this.#timedOutAfter();
    if (timedOutAfter !== undefined) return new AppError('BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', `The registry did not answer for ${subject} within ${timedOutAfter} ms`, undefined, { cause: error });
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (statusCode === 404 || code === 'E404' || code === 'ETARGET') return new AppError('BOT_ERR_CHANNEL_PACKAGE_NOT_FOUND', `The registry has no ${subject}`, undefined, { cause: error });
    if (statusCode === 401 || statusCode === 403) {
      return new AppError('BOT_ERR_CHANNEL_PACKAGE_REGISTRY_REFUSED', `The registry refused the request for ${subject} (HTTP ${statusCode}): check the registry token`, undefined, { cause: error });
    }
    if (code === 'EINTEGRITY') return new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The tarball of ${subject} does not match the registry's dist.integrity`, undefined, { cause: error });
    const status = statusCode === undefined ? '' : ` (HTTP ${statusCode})`;
    return new AppError('BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', `The registry could not be reached for ${subject}${status}`, undefined, { cause: error });
  }
}

function registryUrl(url: string): URL {
  const parsed = plainHttpUrl(url);
  if (!parsed) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', 'The registry URL must be an http(s) URL without credentials (the token is given apart)');
  }
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  parsed.search = '';
  parsed.hash = '';
  return parsed;
}

/**
 * Everything pacote would otherwise take from npm's configuration is set here. The token is
 * keyed to the registry's host and path, the way npm scopes it, so it reaches only that registry.
 */
function registryOptions(base: URL, token: string | undefined, request: { cache: string; timeoutMs: number; signal: AbortSignal }): RegistryOptions {
  return {
    registry: base.href,
    ...(token ? { [`//${base.host}${base.pathname}:_authToken`]: token } : {}),
    cache: request.cache,
    preferOnline: true,
    // The full document holds the publish times that signature checks need.
    fullMetadata: true,
    packumentCache: new Map(),
    strictSSL: true,
    // Only registry specs reach pacote, and its registry fetcher runs no script; said all the same.
    ignoreScripts: true,
    timeout: request.timeoutMs,
    retry: { retries: 1, factor: 2, minTimeout: 250, maxTimeout: 1_000 },
    signal: request.signal,
    userAgent: 'bot-host',
  };
}

function registryVersionOf(manifest: Record<string, unknown>, name: string): RegistryVersion {
  const dist = isRecord(manifest.dist) ? manifest.dist : {};
  if (manifest.name !== name || typeof manifest.version !== 'string') {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_MANIFEST_INVALID', `The registry's entry for ${name} names another package or no version`);
  }
  if (typeof dist.integrity !== 'string') {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_INTEGRITY_MISMATCH', `The registry gives no dist.integrity for ${name}@${manifest.version}`);
  }
  // pacote would refuse a git or file "tarball" too; say so before it is asked.
  if (typeof dist.tarball !== 'string' || !/^https?:\/\//.test(dist.tarball)) {
    throw new AppError('BOT_ERR_CHANNEL_PACKAGE_REGISTRY_UNREACHABLE', `The registry gives no http(s) tarball URL for ${name}@${manifest.version}`);
  }
  return {
    name,
    version: manifest.version,
    integrity: dist.integrity,
    signatures: dist.signatures,
    publishedAt: typeof manifest._time === 'string' ? manifest._time : undefined,
    dependencies: isRecord(manifest.dependencies) ? Object.fromEntries(Object.entries(manifest.dependencies).map(([name, spec]) => [name, String(spec)])) : {},
  };
}

function keysOf(body: unknown): RegistryKey[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.keys)) return undefined;
  return body.keys.filter(isRecord).flatMap((key): RegistryKey[] => {
    const { keyid, keytype, expires } = key;
    if (typeof keyid !== 'string' || typeof keytype !== 'string' || typeof key.key !== 'string') return [];
    if (expires !== undefined && expires !== null && typeof expires !== 'string') return [];
    return [{ keyid, keytype, key: key.key, expires: expires ?? null }];
  });
}

async function readAtMost(stream: TarballStream, maxBytes: number, id: string): Promise<Buffer> {
  // Once we stop reading, the aborted download may still report an error: it must not go unheard.
  stream.on('error', () => undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > maxBytes) throw new AppError('BOT_ERR_CHANNEL_PACKAGE_TOO_LARGE', `The tarball of ${id} is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
