/**
 * `npm run bench -- install [--rounds 3] [--rate 100] [--lead 2] [--tail 3] [--logs <file>]`:
 * how fast the host installs a channel package, and whether webhooks fail while it switches
 * versions. The host runs as `npm start` (child process) on a fresh database, installing
 * `bot-channel-sample` (packed from plugins/bot-channel-sample at several versions) from a local
 * registry that signs them, into a package folder of its own. Each round, with a new major
 * version so nothing is cached (a runner started for a trial is counted with the others):
 * 1. request → serving: an install with the channel absent, an upgrade (both fetched from the
 *    registry) and a rollback (from the tarball the host keeps in its database), each from the
 *    admin request until the new version answers a signed webhook, and until the request's answer;
 * 2. an upgrade while a load process posts signed webhooks at `--rate`/s, from `--lead` s before
 *    the request to `--tail` s after its answer: every answer but a 200 (and every connection
 *    error or time-out) counts as failed. Target: 0.
 * The package is then removed, for the next round's cold install. Prints each round, the medians
 * with their min–max, and what the host logged at warning or above; `--logs` keeps its log lines.
 */
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openBenchDatabase } from './bench-database.ts';
import { printHostProblems } from './e2e-report.ts';
import { sharedNow } from './e2e-plan.ts';
import { startLoadUntilStopped } from './fork-load.ts';
import { startInstallHost, type InstallHost } from './install-host.ts';
import type { InstallLoadPlan, InstallLoadResult } from './install-load-plan.ts';
import { printInstallRound, printInstallSummary, type InstallRound, type LoadedUpgrade, type StepResult } from './install-report.ts';
import { timeChange, type ProbeTarget } from './install-timing.ts';

export interface InstallOptions {
  rounds: number;
  rate: number;
  leadSeconds: number;
  tailSeconds: number;
  /** Writes the host's output (its log lines) there. */
  logsFile: string | undefined;
}

const PACKAGE = 'bot-channel-sample';
const CHANNEL = 'sample';
const WEBHOOK_SECRET = 'install-benchmark-webhook-secret';
const LOAD_ENTRY = new URL('./install-load.ts', import.meta.url);
/** The versions of the untimed warm-up. */
const WARM_UP = ['0.1.0', '0.2.0'] as const;

export async function runInstallBenchmark(): Promise<void> {
  const options = readOptions(process.argv.slice(3));
  const bench = await openBenchDatabase({ poolMax: 2 });
  let host: InstallHost | undefined;
  try {
    host = await startInstallHost(bench.url, [...WARM_UP, ...Array.from({ length: options.rounds }, (_, index) => roundVersions(index)).flat()]);
    console.log(`install benchmark on ${bench.server}: the host as \`npm start\`, ${PACKAGE} from a local signing registry, ${options.rounds} round(s)`);
    console.log(`  under load: ${options.rate} signed webhooks/s from ${options.leadSeconds} s before an upgrade to ${options.tailSeconds} s after its answer`);
    const target = await warmUp(host);
    const rounds: InstallRound[] = [];
    for (let index = 0; index < options.rounds; index += 1) {
      rounds.push(await runRound(host, target, options, index));
      printInstallRound(rounds.at(-1)!, index);
    }
    printInstallSummary(rounds, options);
    printHostProblems(withoutExpectedWarnings(host.process.output()));
  } finally {
    if (options.logsFile && host) await writeFile(options.logsFile, host.process.output());
    await host?.close();
    await bench.close();
  }
}

/** Round `index`'s versions, a major of its own: installed, upgraded to, upgraded to under load. */
function roundVersions(index: number): [string, string, string] {
  return [`${index + 1}.0.0`, `${index + 1}.1.0`, `${index + 1}.2.0`];
}

/**
 * Every path once, untimed (JIT, the host's pools and the page cache warm up), and the source the
 * rounds post to, made while the channel exists; it stays when the package is removed.
 */
async function warmUp(host: InstallHost): Promise<ProbeTarget> {
  const { admin } = host;
  await admin.install(`${PACKAGE}@${WARM_UP[0]}`);
  const ref = await admin.createSource(CHANNEL, { webhook_secret: WEBHOOK_SECRET });
  const target = { admin, channel: CHANNEL, webhookUrl: `${admin.baseUrl}/api/webhook/${ref}`, secret: WEBHOOK_SECRET };
  await timeChange(target, WARM_UP[1], () => admin.install(`${PACKAGE}@${WARM_UP[1]}`));
  await timeChange(target, WARM_UP[0], () => admin.rollback(PACKAGE));
  await removePackage(host);
  return target;
}

async function runRound(host: InstallHost, target: ProbeTarget, options: InstallOptions, index: number): Promise<InstallRound> {
  const [first, second, third] = roundVersions(index);
  const install = await timeStep(host, target, undefined, first, () => host.admin.install(`${PACKAGE}@${first}`));
  const upgrade = await timeStep(host, target, first, second, () => host.admin.install(`${PACKAGE}@${second}`));
  const rollback = await timeStep(host, target, second, first, () => host.admin.rollback(PACKAGE));
  const underLoad = await upgradeUnderLoad(host, target, options, [first, third], `r${index}`);
  await removePackage(host);
  return { steps: { install, upgrade, rollback }, underLoad };
}

async function timeStep(host: InstallHost, target: ProbeTarget, from: string | undefined, to: string, change: () => Promise<void>): Promise<StepResult> {
  const downloads = tarballDownloads(host);
  const runners = host.runnerStarts.count;
  const timing = await timeChange(target, to, change);
  return { from, to, downloads: tarballDownloads(host) - downloads, runners: host.runnerStarts.count - runners, ...timing };
}

/** Upgrades `from` → `to` (from the registry) while the load process posts webhooks at the options' rate. */
async function upgradeUnderLoad(host: InstallHost, target: ProbeTarget, options: InstallOptions, [from, to]: [string, string], idPrefix: string): Promise<LoadedUpgrade> {
  const plan: InstallLoadPlan = { url: target.webhookUrl, secret: target.secret, rate: options.rate, idPrefix };
  const load = await startLoadUntilStopped<InstallLoadPlan, InstallLoadResult>(LOAD_ENTRY, plan);
  try {
    await sleep(options.leadSeconds * 1000);
    const requestedAt = sharedNow();
    const runners = host.runnerStarts.count;
    const timing = await timeChange(target, to, () => host.admin.install(`${PACKAGE}@${to}`));
    await sleep(options.tailSeconds * 1000);
    const result = await load.stop();
    return { from, to, ...timing, runners: host.runnerStarts.count - runners, requestedAt, seconds: (result.endedAt - result.startedAt) / 1000, records: result.records };
  } catch (error) {
    await load.stop().catch(() => undefined);
    throw error;
  }
}

async function removePackage(host: InstallHost): Promise<void> {
  await host.admin.remove(PACKAGE);
  if ((await host.admin.servingVersion(CHANNEL)) !== undefined) throw new Error(`${CHANNEL} still serves after ${PACKAGE} was removed`);
}

/** The rounds' source has no workflow on purpose: every event it takes is skipped with a warning. */
function withoutExpectedWarnings(output: string): string {
  return output
    .split('\n')
    .filter((line) => !line.includes('"msg":"inbound event skipped: no workflow runs for it"'))
    .join('\n');
}

function tarballDownloads(host: InstallHost): number {
  return host.registry.count(`/${PACKAGE}/-/`);
}

function readOptions(args: string[]): InstallOptions {
  const { values } = parseArgs({
    args,
    options: {
      rounds: { type: 'string', default: '3' },
      rate: { type: 'string', default: '100' },
      lead: { type: 'string', default: '2' },
      tail: { type: 'string', default: '3' },
      logs: { type: 'string' },
    },
  });
  const number = (name: keyof typeof values, minimum: number) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < minimum) throw new Error(`--${name} must be a number >= ${minimum}, got "${values[name]}"`);
    return value;
  };
  return { rounds: number('rounds', 1), rate: number('rate', 1), leadSeconds: number('lead', 0), tailSeconds: number('tail', 0), logsFile: values.logs };
}
