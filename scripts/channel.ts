/**
 * `npm run channel -- list | install <spec|file.tgz> [--integrity <sha512-…>] | upgrade … | rollback <name> | remove <name> | audit`:
 * the host's channel packages from a terminal, before the host has ever run or while it is
 * stopped. It writes the installed set in the host's database (DATABASE_URL, else the embedded
 * one under BOT_DATA_DIR) and unpacks the package into BOT_CHANNEL_STORE_DIR, running none of
 * its code; running instances hear of it and switch at once, a stopped one at its next start.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../host/config/load-config.ts';
import { createKnex } from '../host/db/create-knex.ts';
import { startConfiguredEmbedded } from '../host/db/embedded/start-configured-embedded.ts';
import { migrateToLatest } from '../host/db/migration-source.ts';
import { isAppError } from '../host/errors/app-error.ts';
import { createLogger } from '../host/logging/create-logger.ts';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readHostProvidedVersions } from '../host/channels/discovery/host-provided-versions.ts';
import { ChannelPackageService } from '../host/channels/packages/channel-package-service.ts';
import { ChannelPackageStore } from '../host/channels/packages/channel-package-store.ts';
import { extractChannelPackage } from '../host/channels/packages/extract-channel-package.ts';
import { fetchChannelPackage, packageFromUpload } from '../host/channels/packages/fetch-channel-package.ts';
import { InstalledPackages } from '../host/channels/packages/installed-packages.ts';
import { installRulesFrom } from '../host/channels/packages/install-policy.ts';

const USAGE = `usage: npm run channel -- list
       npm run channel -- install <bot-channel-x[@version]|./file.tgz> [--integrity sha512-…] [--as <who>]
       npm run channel -- upgrade <bot-channel-x@version|./file.tgz> [--integrity sha512-…] [--as <who>]
       npm run channel -- rollback <bot-channel-x> [--as <who>]
       npm run channel -- remove <bot-channel-x> [--as <who>]
       npm run channel -- audit`;
const HOST_ROOT = fileURLToPath(new URL('..', import.meta.url));

class UsageError extends Error {}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { integrity: { type: 'string' }, as: { type: 'string', default: `cli:${process.env.USER ?? 'operator'}` } } });
const [command, target] = positionals;

try {
  if (!command || !['list', 'install', 'upgrade', 'rollback', 'remove', 'audit'].includes(command)) throw new UsageError(`unknown command ${command ?? '(none)'}`);
  if (['install', 'upgrade', 'rollback', 'remove'].includes(command) && !target) throw new UsageError(`${command} needs a package`);
  const config = loadConfig();
  const logger = createLogger({ level: 'warn', pretty: false });
  const embedded = config.embeddedDatabase ? await startConfiguredEmbedded(config, logger) : undefined;
  const db = createKnex({ url: embedded?.url ?? config.DATABASE_URL!, poolMax: 2, logger });
  try {
    await migrateToLatest(db);
    const providedVersions = readHostProvidedVersions(HOST_ROOT);
    const packages: ChannelPackageService = new ChannelPackageService({
      installed: new InstalledPackages(db, `cli-${randomUUID()}`),
      store: new ChannelPackageStore({ dir: config.BOT_CHANNEL_STORE_DIR, hostRoot: HOST_ROOT, providedPeers: Object.keys(providedVersions), extract: extractChannelPackage }),
      policy: config.BOT_CHANNEL_INSTALL,
      rules: installRulesFrom(config),
      registry: { url: config.BOT_CHANNEL_REGISTRY, ...(config.BOT_CHANNEL_REGISTRY_TOKEN === undefined ? {} : { token: config.BOT_CHANNEL_REGISTRY_TOKEN }) },
      providedVersions,
      hostRoot: HOST_ROOT,
      // No channels run here: the folder is brought to the new set, and the hosts discover the
      // package when they hear of it, or at their start.
      rescan: async () => {
        await packages.converge();
        return { added: [], removed: [], upgraded: [], rejected: [] };
      },
      diagnostics: () => [],
      fetch: fetchChannelPackage,
      fromUpload: packageFromUpload,
    });
    await run(packages, command, target);
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (isAppError(error)) {
    console.error(`${error.code}: ${error.message}`);
    process.exit(1);
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'BOT_ERR_DB_DATA_DIR_IN_USE') {
    console.error(`${(error as Error).message}\nThe host is running on this data directory: install from its panel (Channels) or POST /api/channel/packages.`);
    process.exit(1);
  }
  throw error;
}

async function run(packages: ChannelPackageService, command: string, target: string | undefined): Promise<void> {
  const actor = values.as;
  switch (command) {
    case 'list': {
      for (const entry of await packages.list()) console.log(`${entry.name}@${entry.version}  ${entry.trust}  ${entry.integrity}  by ${entry.installedBy} at ${entry.installedAt}`);
      return;
    }
    case 'audit': {
      for (const entry of await packages.audit()) console.log(`${entry.at}  ${entry.actor}  ${entry.action} ${entry.name}@${entry.version ?? '?'}  ${entry.outcome}${entry.message ? `: ${entry.message}` : ''}`);
      return;
    }
    case 'rollback': {
      const { package: current } = await packages.rollback(target!, actor);
      console.log(`rolled ${current.name} back to ${current.version} (${current.integrity})`);
      return;
    }
    case 'remove':
      await packages.remove(target!, actor);
      console.log(`removed ${target}`);
      return;
    default: {
      const pin = values.integrity === undefined ? {} : { integrity: values.integrity };
      const request = target!.endsWith('.tgz') ? { tarball: await readFile(target!), ...pin, actor } : { spec: target!, ...pin, actor };
      const { package: installed } = await packages.install(request);
      console.log(`installed ${installed.name}@${installed.version} (${installed.trust}, ${installed.integrity}); no script of it ran`);
      console.log(`egress hosts it declares: ${installed.manifest.egress.join(', ') || 'none'}`);
    }
  }
}
