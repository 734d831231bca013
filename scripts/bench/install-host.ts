import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHostProcess, type HostProcess } from '../../test/support/host-process.ts';
import { createPluginRoot } from '../../test/support/temp-plugin-root.ts';
import { createSigningKey, startTestRegistry, type TestRegistry } from '../../test/support/test-registry.ts';
import { InstallAdmin } from './install-admin.ts';
import { RunnerStarts } from './runner-starts.ts';
import { packSampleAt } from './sample-package-tarball.ts';

const AUTH_SECRET = 'install-benchmark-auth-secret-0123456789abcdef';

export interface InstallHost {
  admin: InstallAdmin;
  /** The local registry the host installs from; its requests show what an install fetched. */
  registry: TestRegistry;
  /** Counts the channel runners the host starts (a trial's included). */
  runnerStarts: RunnerStarts;
  process: HostProcess;
  close(): Promise<void>;
}

/**
 * A local registry on a free port that signs what it serves (as the npm registry does), with
 * `bot-channel-sample` published at each of `versions`, and the host as `npm start` runs it on
 * the benchmark's database, installing from that registry into a package folder of its own. Its
 * app root holds the SDK only: the sample package is not in it, so the host has no channel
 * `sample` until it installs one.
 */
export async function startInstallHost(databaseUrl: string, versions: string[]): Promise<InstallHost> {
  const registry = await startTestRegistry({ signingKey: createSigningKey() });
  for (const version of versions) {
    const { manifest, tarball } = await packSampleAt(version);
    registry.publish(manifest, tarball);
  }
  const appRoot = await createPluginRoot('bot-install-bench-app-');
  // As root, the runners read the package folder as other users: its parent must let them pass.
  const storeParent = await mkdtemp(path.join(tmpdir(), 'bot-install-bench-store-'));
  await chmod(storeParent, 0o755);
  const storeDir = path.join(storeParent, 'channel-packages');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-install-bench-data-'));
  const cleanUp = async () => {
    await registry.close();
    for (const dir of [appRoot, storeParent, dataDir]) await rm(dir, { recursive: true, force: true });
  };
  let child: HostProcess;
  try {
    child = await startHostProcess({
      DATABASE_URL: databaseUrl,
      BOT_DATA_DIR: dataDir,
      BOT_APP_ROOT: appRoot,
      BOT_AUTH_SECRET: AUTH_SECRET,
      BOT_DOWNLOAD_SECRET: 'install-benchmark-download-secret-0123456789abcdef',
      BOT_CHANNEL_REGISTRY: registry.url,
      BOT_CHANNEL_STORE_DIR: storeDir,
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const runnerStarts = new RunnerStarts(Number(/"pid":(\d+)/.exec(child.output())?.[1]), storeDir);
  return {
    admin: new InstallAdmin(child.url, AUTH_SECRET),
    registry,
    runnerStarts,
    process: child,
    async close() {
      runnerStarts.close();
      await child.stop('SIGTERM');
      await cleanUp();
    },
  };
}
