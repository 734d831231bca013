/** The registry to install from, as the operator configured it (BOT_CHANNEL_REGISTRY, BOT_CHANNEL_REGISTRY_TOKEN). */
export interface RegistrySettings {
  /** http(s) URL of an npm registry, e.g. `https://registry.npmjs.org/`. */
  url: string;
  /** Bearer token, sent to that registry only. */
  token?: string;
  /** Deadline for the whole fetch (metadata, keys and tarball); 60 s by default. */
  timeoutMs?: number;
}
