import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { directFetchService } from '../egress/direct-fetch-service.ts';
import type { HttpChannelHandler } from '../handlers/http-channel-handler.ts';
import { installHostServices } from '../services/host-services.ts';
import { inProcessChannel } from './channel-under-test.ts';
import { FakePlatform } from './fake-platform.ts';
import { loadChannelFixtures } from './load-fixtures.ts';
import { checkSource, runChannelCheck, type CheckReport } from './run-channel-check.ts';

/**
 * Runs the author kit on a built channel package in this process, with no host: the package's
 * `*.channel.js` is imported and its default export constructed, and its `fetch` goes straight to
 * the fake platform (none of the host's egress rules apply). The bot host's
 * `npm run channel:check` runs the same checks on the channel in its sandbox, after discovery's.
 * @example const report = await checkPackageInProcess('node_modules/bot-channel-telegram');
 */
export async function checkPackageInProcess(packageDir: string, options: { now?: () => Date } = {}): Promise<CheckReport> {
  const fixtures = await loadChannelFixtures(packageDir);
  const Handler = await importChannelClass(packageDir);
  const platform = await FakePlatform.start(fixtures.manifest.platform.routes);
  installHostServices({ getAttachmentPublicUrl: async (_sourceId, ref) => `${platform.url}/download/${encodeURIComponent(ref)}`, fetch: directFetchService });
  try {
    const source = checkSource(fixtures.manifest, platform.url);
    return await runChannelCheck({ channel: inProcessChannel(new Handler()), fixtures, platform, source, ...options });
  } finally {
    installHostServices(undefined);
    await platform.close();
  }
}

/** The default export of the package's one `*.channel.js` outside node_modules. */
async function importChannelClass(packageDir: string): Promise<new () => HttpChannelHandler> {
  const files = await channelFiles(path.resolve(packageDir));
  if (files.length !== 1) throw new Error(`${packageDir}: expected one *.channel.js (build the package first), found ${files.length}`);
  const module = (await import(pathToFileURL(files[0]!).href)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new Error(`${files[0]}: the default export is not a channel class`);
  return module.default as new () => HttpChannelHandler;
}

async function channelFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.channel.js'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(dir, file).split(path.sep).includes('node_modules'));
}
