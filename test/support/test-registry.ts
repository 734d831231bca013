/**
 * A small npm registry on 127.0.0.1 for install tests: packuments (`GET /<name>`, full
 * metadata with `time`), tarballs, and, when it has a signing key, `/-/npm/v1/keys` and
 * `dist.signatures` made the way the npm registry makes them (ECDSA P-256 over
 * `${name}@${version}:${integrity}`). It can require a bearer token and records every request.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import semver from 'semver';

/** An ECDSA P-256 key as the registry holds it, with the public half as `/-/npm/v1/keys` lists it. */
export interface SigningKey {
  keyid: string;
  privateKey: KeyObject;
  /** Base64 SPKI DER. */
  publicKey: string;
  expires: string | null;
}

/** A fresh P-256 key pair; its id is `SHA256:` and the digest of the public key, as npm's are. */
export function createSigningKey(expires: string | null = null): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const der = publicKey.export({ format: 'der', type: 'spki' });
  const keyid = `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
  return { keyid, privateKey, publicKey: der.toString('base64'), expires };
}

/** How a version is published. */
export interface PublishOptions {
  /** The `dist.integrity` the registry advertises; the tarball's own by default. */
  integrity?: string;
  /**
   * The version's `dist.signatures`: by the registry's key (the default when it has one), none,
   * or made with another key under the registry's key id (a forgery).
   */
  signature?: 'registry' | 'none' | { forgedWith: SigningKey } | { keyid: string; signedWith: SigningKey };
  /** The integrity the signature covers; the advertised one by default. */
  signedIntegrity?: string;
  publishedAt?: string;
}

/** A request as the registry saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

interface Version {
  manifest: Record<string, unknown>;
  tarball: Buffer;
  integrity: string;
  signatures: { keyid: string; sig: string }[] | undefined;
  publishedAt: string;
}

/** A running test registry; close it with `close()`. */
export class TestRegistry {
  readonly requests: RecordedRequest[] = [];
  readonly #packages = new Map<string, Map<string, Version>>();
  readonly #server = createServer((request, response) => this.#serve(request, response));
  readonly #options: TestRegistryOptions;
  url = '';

  constructor(options: TestRegistryOptions) {
    this.#options = options;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/`;
    return this;
  }

  /** Publishes `manifest` (the package.json) of `tarball`; its name and version key the entry. */
  publish(manifest: Record<string, unknown>, tarball: Buffer, options: PublishOptions = {}): void {
    const name = String(manifest.name);
    const version = String(manifest.version);
    const integrity = options.integrity ?? sha512Integrity(tarball);
    const versions = this.#packages.get(name) ?? new Map<string, Version>();
    this.#packages.set(name, versions);
    const publishedAt = options.publishedAt ?? new Date().toISOString();
    versions.set(version, { manifest, tarball, integrity, signatures: this.#signatures(`${name}@${version}:${options.signedIntegrity ?? integrity}`, options.signature), publishedAt });
  }

  /** Requests whose path starts with `prefix`. */
  count(prefix: string): number {
    return this.requests.filter((request) => request.path.startsWith(prefix)).length;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #signatures(message: string, choice: PublishOptions['signature']): Version['signatures'] {
    const key = this.#options.signingKey;
    if (choice === 'none' || (choice === undefined && !key)) return undefined;
    if (choice === undefined || choice === 'registry') return [{ keyid: key!.keyid, sig: signWith(key!, message) }];
    if ('forgedWith' in choice) return [{ keyid: key!.keyid, sig: signWith(choice.forgedWith, message) }];
    return [{ keyid: choice.keyid, sig: signWith(choice.signedWith, message) }];
  }

  #serve(request: IncomingMessage, response: ServerResponse): void {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname);
    this.requests.push({ method: request.method ?? 'GET', path, authorization: request.headers.authorization });
    if (this.#options.token !== undefined && request.headers.authorization !== `Bearer ${this.#options.token}`) return sendJson(response, 401, { error: 'authentication required' });
    if (path === '/-/npm/v1/keys') return this.#serveKeys(response);
    const tarball = /^\/([^/]+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(path);
    if (tarball) return this.#serveTarball(response, tarball[1]!, tarball[2]!);
    const versions = this.#packages.get(path.slice(1));
    if (!versions) return sendJson(response, 404, { error: 'not found' });
    sendJson(response, 200, this.#packument(path.slice(1), versions));
  }

  #serveKeys(response: ServerResponse): void {
    if (this.#options.keysOnce && this.count('/-/npm/v1/keys') > 1) return sendJson(response, 404, { error: 'not found' });
    if (this.#options.keysBody !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html' });
      return void response.end(this.#options.keysBody);
    }
    const key = this.#options.signingKey;
    if (!key) return sendJson(response, 404, { error: 'not found' });
    sendJson(response, 200, { keys: [{ expires: key.expires, keyid: key.keyid, keytype: 'ecdsa-sha2-nistp256', scheme: 'ecdsa-sha2-nistp256', key: key.publicKey }] });
  }

  #serveTarball(response: ServerResponse, name: string, version: string): void {
    const found = this.#packages.get(name)?.get(version);
    if (!found) return sendJson(response, 404, { error: 'not found' });
    if (this.#options.stallTarballs) return; // never answers: the client's deadline must end the wait
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': found.tarball.length });
    response.end(found.tarball);
  }

  #packument(name: string, versions: Map<string, Version>): Record<string, unknown> {
    const entries = [...versions].map(([version, found]) => [version, {
      ...found.manifest,
      _id: `${name}@${version}`,
      dist: { tarball: `${this.url}${name}/-/${name}-${version}.tgz`, integrity: found.integrity, ...(found.signatures ? { signatures: found.signatures } : {}) },
    }]);
    const latest = semver.rsort([...versions.keys()])[0];
    const times = Object.fromEntries([...versions].map(([version, found]) => [version, found.publishedAt]));
    return { _id: name, name, 'dist-tags': { latest }, versions: Object.fromEntries(entries), time: { created: '2026-01-01T00:00:00.000Z', modified: new Date().toISOString(), ...times } };
  }
}

/** What the registry does besides serving what is published. */
export interface TestRegistryOptions {
  /** Requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
  /** Publishes `/-/npm/v1/keys` with this key and signs versions with it. */
  signingKey?: SigningKey;
  /** Tarball requests are accepted and never answered. */
  stallTarballs?: boolean;
  /** `/-/npm/v1/keys` answers 200 with this body (a captive portal's page, say) instead of keys. */
  keysBody?: string;
  /** `/-/npm/v1/keys` answers with the keys once, then 404 (a registry that changes its word between two questions). */
  keysOnce?: boolean;
}

/** Starts a registry on a free port of 127.0.0.1. */
export function startTestRegistry(options: TestRegistryOptions = {}): Promise<TestRegistry> {
  return new TestRegistry(options).listen();
}

/** The SRI string npm publishes as `dist.integrity`. */
export function sha512Integrity(data: Buffer): string {
  return `sha512-${createHash('sha512').update(data).digest('base64')}`;
}

function signWith(key: SigningKey, message: string): string {
  return sign('sha256', Buffer.from(message), key.privateKey).toString('base64');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
