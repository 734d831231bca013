/**
 * `npm run channel:check -- <package folder or name>`: the author kit run by the host. Checks a
 * built channel package the way the host will treat it: discovery's checks (manifest, peers,
 * egress hosts, links), a start in its sandbox, then every check of `@bot-ai/api/check` through
 * the runner (handshake, signatures accepted and forged, decode of each recorded delivery in its
 * `fixtures/`, sends against a fake platform that answers 429 and 503, subscriber data), with
 * the host's egress rules between the channel and the fake platform. Prints the report; exits 1
 * when a check fails, 2 when the package cannot be checked at all.
 */
import { mkdtemp, mkdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChannelCapabilities } from '@bot-ai/api';
import { checkSource, FakePlatform, formatCheckReport, loadChannelFixtures, runChannelCheck, type ChannelUnderTest, type CheckReport } from '@bot-ai/api/check';
import pino from 'pino';
import type { ChannelCalls } from '../host/channels/calls/channel-calls.ts';
import { checkChannelFiles, type CheckedChannelFile } from '../host/channels/discovery/check-channel-files.ts';
import { readHostProvidedVersions } from '../host/channels/discovery/host-provided-versions.ts';
import { sandboxLoader } from '../host/channels/load-channel-in-sandbox.ts';
import type { ChannelDescription } from '../host/channels/discovery/discovered-channel.ts';
import { sandboxSettingsFrom } from '../host/channels/sandbox-settings-from-config.ts';
import { ChannelEgress } from '../host/egress/channel-egress.ts';
import { EgressClient } from '../host/egress/egress-client.ts';
import { egressLimitsFrom } from '../host/egress/egress-limits.ts';

const HOST_ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: npm run channel:check -- <package folder or node_modules name>';

/** The package cannot be checked (exit 2), as opposed to a check that fails (exit 1). */
class CannotCheck extends Error {}

try {
  const packageDir = await resolvePackage(process.argv.slice(2));
  const report = await checkPackage(packageDir);
  process.stdout.write(formatCheckReport(report));
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  process.stderr.write(`channel:check: ${(error as Error).message}\n`);
  process.exitCode = error instanceof CannotCheck ? 2 : 1;
}

async function resolvePackage(args: string[]): Promise<string> {
  if (args.length !== 1 || !args[0]) throw new CannotCheck(USAGE);
  const candidates = [path.resolve(args[0]), path.join(HOST_ROOT, 'node_modules', args[0])];
  for (const candidate of candidates) {
    const manifest = await readFile(path.join(candidate, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest !== undefined) return realpath(candidate);
  }
  throw new CannotCheck(`no package.json in ${candidates.join(' or ')}`);
}

async function checkPackage(packageDir: string): Promise<CheckReport> {
  const fixtures = await loadChannelFixtures(packageDir).catch((error: Error) => {
    throw new CannotCheck(`the package's fixtures cannot be read: ${error.message}`);
  });
  const file = await discover(packageDir);
  const platform = await FakePlatform.start(fixtures.manifest.platform.routes);
  const source = checkSource(fixtures.manifest, platform.url);
  let description: ChannelDescription | undefined;
  const egress = new ChannelEgress({
    client: new EgressClient({ limits: egressLimitsFrom() }),
    channels: { get: (name) => (description?.name === name ? { egress: file.egress, description } : undefined) },
    // The operator's grant, as a saved source would carry it, but only for the settings that point
    // at the fake platform: the fixtures are the package's own, not an operator's.
    sources: { get: async (id) => (id === source.id && description ? { channel: description.name, settings: source.settings, egress_grants: platformSettings(source.settings, platform.url) } : undefined) },
    countRefused: () => {},
    logger: pino({ level: 'warn' }),
  });
  const loaded = await sandboxLoader({
    ...sandboxSettingsFrom(),
    hostServicesFor: (channelName) => ({
      getAttachmentPublicUrl: async (_sourceId, name) => `${platform.url}/download/${encodeURIComponent(name)}`,
      fetch: egress.fetchFor(channelName),
    }),
    logger: pino({ level: 'warn' }),
  })(file);
  try {
    description = loaded.description;
    const isolation = loaded.status();
    const report = await runChannelCheck({ channel: underTest(loaded.sandbox, loaded.description), fixtures, platform, source });
    const discovery = { name: `discovery: ${path.relative(HOST_ROOT, file.realFile) || file.realFile} passes the manifest, peer, egress and link checks`, ok: true, detail: `egress ${file.egress.join(', ') || '(none)'}` };
    const sandbox = { name: `starts in its sandbox (${isolation.isolation})`, ok: true, ...(isolation.isolationReason ? { detail: isolation.isolationReason } : {}) };
    return { ...report, results: [discovery, sandbox, ...report.results] };
  } finally {
    await loaded.close();
    await platform.close();
  }
}

/**
 * The settings whose value is a URL on the fake platform's origin: the only endpoints the check
 * grants. A package's fixtures could name any other (loopback, a metadata address, a bot host on
 * the same machine), and an x-egress grant reaches any address: the package would get more from
 * its own fixtures than a runner gets in the host, where only an operator's saved value counts.
 * @example platformSettings({ api_url: 'http://127.0.0.1:4000/api', probe: 'http://127.0.0.1:9' }, 'http://127.0.0.1:4000') // ['api_url']
 */
function platformSettings(settings: Record<string, unknown>, platformUrl: string): string[] {
  const origin = new URL(platformUrl).origin;
  return Object.keys(settings).filter((key) => {
    const value = settings[key];
    return typeof value === 'string' && URL.canParse(value) && new URL(value).origin === origin;
  });
}

/** Discovery's own checks, on an app root of its own holding only this package. */
async function discover(packageDir: string): Promise<CheckedChannelFile & { passed: true }> {
  const name = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')).name as string;
  if (typeof name !== 'string' || !name.startsWith('bot-channel-')) throw new CannotCheck(`the package name ${JSON.stringify(name)} does not start with bot-channel-`);
  const appRoot = await mkdtemp(path.join(tmpdir(), 'channel-check-'));
  try {
    await mkdir(path.join(appRoot, 'node_modules'));
    await symlink(packageDir, path.join(appRoot, 'node_modules', name));
    const checked = (await checkChannelFiles({ appRoot, providedVersions: readHostProvidedVersions(HOST_ROOT), links: { hostRoot: HOST_ROOT, privatePaths: [] } })).filter((file) => file.origin === 'package');
    if (checked.length !== 1) throw new CannotCheck(`discovery finds ${checked.length} *.channel.js in ${packageDir} (build it first; a package holds one channel)`);
    const [file] = checked;
    if (!file!.passed) throw new CannotCheck(`discovery refuses it: ${file!.code}: ${file!.message}`);
    return file as CheckedChannelFile & { passed: true };
  } finally {
    await rm(appRoot, { recursive: true, force: true });
  }
}

/** The runner's calls as the kit makes them; typing only where the host has that call. */
function underTest(calls: ChannelCalls, description: ChannelDescription): ChannelUnderTest {
  const typing = (calls as Partial<{ typing: NonNullable<ChannelUnderTest['typing']> }>).typing;
  return {
    // The kit checks the capabilities against their schema itself.
    describe: async () => ({ ...description, capabilities: description.capabilities as ChannelCapabilities }),
    verifyWebhook: (req, source) => calls.verifyWebhook(req, source),
    receiveWebhook: (req, source) => calls.receiveWebhook(req, source),
    send: (event, source, envelope, options) => calls.send(event, source, envelope, options),
    subscriberData: (event, source) => calls.subscriberData(event, source),
    ...(typing ? { typing: (event, source) => typing.call(calls, event, source) } : {}),
  };
}
