import type { DiscoveryResult } from './discovery/discovered-channel.ts';

interface ComparableEntry {
  name: string;
  fingerprint: string;
  realFile: string;
  package: { version: string } | undefined;
}

/** What a rescan changed, as `POST /api/channel/rescan` answers it. */
export interface RescanReport {
  added: string[];
  removed: string[];
  /** Channels whose code changed; `from`/`to` are package versions, or code hashes for local channels. */
  upgraded: { name: string; from: string; to: string }[];
  rejected: { file: string; code: string | undefined; message: string | undefined }[];
}

export function diffChannels(
  previous: ReadonlyMap<string, ComparableEntry>,
  next: ReadonlyMap<string, ComparableEntry>,
  rejected: readonly DiscoveryResult<unknown>[],
): RescanReport {
  const upgraded = [...next.values()].flatMap((entry) => {
    const old = previous.get(entry.name);
    if (!old || (old.fingerprint === entry.fingerprint && old.realFile === entry.realFile)) return [];
    // The same version number with other code (a local rebuild, a package patched in place): say which code.
    const sameVersion = old.package?.version === entry.package?.version;
    return [{ name: entry.name, from: versionOf(old, sameVersion), to: versionOf(entry, sameVersion) }];
  });
  return {
    added: [...next.keys()].filter((name) => !previous.has(name)).sort(),
    removed: [...previous.keys()].filter((name) => !next.has(name)).sort(),
    upgraded,
    rejected: rejected.map(({ file, code, message }) => ({ file, code, message })),
  };
}

function versionOf(entry: ComparableEntry, withCode: boolean): string {
  const code = entry.fingerprint.slice(0, 12);
  if (!entry.package) return code;
  return withCode ? `${entry.package.version}+${code}` : entry.package.version;
}
