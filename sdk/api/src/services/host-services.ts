import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One outgoing HTTP request as plain data: what the SDK's `fetch` hands the host. Only
 * structured-clone data (no Request, Headers or functions), so it crosses threads and processes.
 * @example const request: EgressRequest = { url: 'https://api.telegram.org/bot1/getMe', method: 'GET', headers: [['accept', 'application/json']] };
 */
export interface EgressRequest {
  /** Absolute http(s) URL. */
  url: string;
  /** Upper-case method, e.g. `POST`. */
  method: string;
  /** Header pairs, lower-case names, in order. */
  headers: [string, string][];
  /** The body bytes; absent for none. */
  body?: Uint8Array;
  /** What to do with a redirect, as in `RequestInit.redirect`; default `follow`. */
  redirect?: 'follow' | 'manual' | 'error';
  /**
   * The source being served, as the plugin's side knows it (the SDK's `fetch` fills it in). The
   * host does not take it on trust: it applies the `x-egress` origins of the source of the call
   * the request was made in, whatever this says, and none outside a call.
   */
  sourceId?: string;
  /** The caller stops waiting after this long: the host answers by then, at the latest. */
  timeoutMs?: number;
}

/**
 * What the host answers to an {@link EgressRequest}, as plain data; the SDK's `fetch` turns it
 * into a `Response`.
 * @example const text = new TextDecoder().decode(answer.body);
 */
export interface EgressResponse {
  status: number;
  statusText: string;
  /** Header pairs, lower-case names; `set-cookie` once per cookie. */
  headers: [string, string][];
  /** The body bytes, already decoded (gzip, br, …) as `fetch` does. */
  body: Uint8Array;
  /** The URL of the last hop, after redirects. */
  url: string;
  /** True when at least one redirect was followed. */
  redirected: boolean;
}

/**
 * The host services a plugin may call; in a sandbox they cross to the host by message, so every
 * argument and result is plain, cloneable data.
 * @example installHostServices({ getAttachmentPublicUrl: async (sourceId, ref) => `https://host.test/${ref}`, fetch: directFetchService });
 */
export interface HostServices {
  getAttachmentPublicUrl(sourceId: string, attachmentRef: string): Promise<string>;
  /** Performs one request under the host's egress rules; absent, every `fetch` is refused. */
  fetch?(request: EgressRequest): Promise<EgressResponse>;
}

interface HostRuntime {
  services: HostServices | undefined;
  /** The source each plugin call serves, set by the host's worker around the call. */
  calls: AsyncLocalStorage<{ sourceId: string | undefined }>;
}

// Kept on the global object under a `Symbol.for` key, as the brands are: a plugin that resolves
// its own copy of this package still finds what the host's copy installed in the same worker.
const HOST_RUNTIME: unique symbol = Symbol.for('bot-ai.host-runtime') as never;

function hostRuntime(): HostRuntime {
  const global = globalThis as typeof globalThis & { [HOST_RUNTIME]?: HostRuntime };
  global[HOST_RUNTIME] ??= { services: undefined, calls: new AsyncLocalStorage() };
  return global[HOST_RUNTIME];
}

/**
 * Called by the host runtime (never by plugins) before any plugin code runs; plugin tests may
 * install stand-ins, and `undefined` removes them.
 * @example installHostServices({ getAttachmentPublicUrl: async () => 'https://host.test/file', fetch: directFetchService });
 */
export function installHostServices(services: HostServices | undefined): void {
  hostRuntime().services = services;
}

/**
 * The services installed in this thread, if any.
 * @example const url = await installedHostServices()?.getAttachmentPublicUrl(sourceId, 'a.pdf');
 */
export function installedHostServices(): HostServices | undefined {
  return hostRuntime().services;
}

/**
 * Runs one plugin call on behalf of a source (the host's worker does it around every call), so
 * that `fetch` inside it, however deep, names that source. An AsyncLocalStorage rather than a
 * parameter: platform SDKs that take a custom `fetch` call it with `(input, init)` only, and
 * still name the right source. It grants nothing: the host acts for the source of its own call,
 * whatever source a request names.
 * @example await runForSource(source.id, () => handler.doSendMessage(event, envelope, options));
 */
export function runForSource<T>(sourceId: string | undefined, run: () => T): T {
  return hostRuntime().calls.run({ sourceId }, run);
}

/**
 * The source the current plugin call serves; undefined outside a call (e.g. at import time).
 * @example const sourceId = currentSourceId();
 */
export function currentSourceId(): string | undefined {
  return hostRuntime().calls.getStore()?.sourceId;
}
