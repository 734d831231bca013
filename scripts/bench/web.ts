/**
 * `npm run bench -- web [--clients 500] [--seconds 20] [--rate 1]`: live chat end to end. The
 * host runs as `npm start` in a child process on the benchmark's database, with a `web` source
 * whose default workflow is the greeting example; `--clients` WebSocket clients (in this
 * process), each its own session, send `--rate` messages a second ("my name is <name>": one
 * `update_memory`, one `send_text_message`) for `--seconds`. Each client first sends one
 * untimed message, so subscribers, threads and memory exist and the host is warm. Prints
 * replies/s, send → reply p50 and p99, unanswered messages, and the host's RSS.
 * Target: p99 under 200 ms with every message answered.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { bindDefinitionPlaceholders } from '../../host/workflows/document/bind-definition-placeholders.ts';
import { startHostProcess, type HostProcess } from '../../test/support/host-process.ts';
import { openBenchDatabase } from './bench-database.ts';
import { formatMs, formatRate, latencyPercentiles, printTable } from './measure.ts';
import { BenchChatClient } from './web-clients.ts';
import { printWebStages } from './web-stages.ts';

const AUTH_SECRET = 'web-benchmark-auth-secret-0123456789abcdef';
const GREETING = new URL('../../workflows/examples/greeting.yaml', import.meta.url);
const DRAIN_MS = 10_000;

export async function runWebBenchmark(): Promise<void> {
  const options = readOptions(process.argv.slice(3));
  const bench = await openBenchDatabase({ poolMax: 2 });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-web-bench-'));
  let host: HostProcess | undefined;
  const clients: BenchChatClient[] = [];
  try {
    host = await startHostProcess({
      DATABASE_URL: bench.url,
      BOT_DATA_DIR: dataDir,
      BOT_AUTH_SECRET: AUTH_SECRET,
      BOT_DOWNLOAD_SECRET: 'web-benchmark-download-secret-0123456789abcdef',
    });
    const hostPid = Number(/"pid":(\d+)/.exec(host.output())?.[1]);
    const socketUrl = `${host.url.replace('http', 'ws')}/api/ws/${await setUpWebSource(host.url)}`;
    console.log(`web benchmark on ${bench.server}: host as \`npm start\` (child process, pid ${hostPid})`);
    console.log(`  ${options.clients} WebSocket clients, ${options.rate} message/s each, for ${options.seconds} s`);

    for (let index = 0; index < options.clients; index += 50) {
      const batch = Array.from({ length: Math.min(50, options.clients - index) }, (_, offset) => BenchChatClient.connect(socketUrl, `C${index + offset}`));
      clients.push(...(await Promise.all(batch)));
    }
    for (const client of clients) client.send(false);
    await until(() => clients.every((client) => client.outstanding === 0), 60_000);
    const rssBefore = await rssMb(hostPid);

    const measuredSince = new Date();
    const rssSamples: number[] = [];
    const sampler = setInterval(() => void rssMb(hostPid).then((mb) => rssSamples.push(mb)), 1000);
    const started = performance.now();
    for (const client of clients) client.start(options.rate, Math.random() * (1000 / options.rate));
    await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
    for (const client of clients) client.stop();
    const sendSeconds = (performance.now() - started) / 1000;
    await until(() => clients.every((client) => client.outstanding === 0), DRAIN_MS).catch(() => undefined);
    clearInterval(sampler);
    report(clients, sendSeconds, { before: rssBefore, peak: Math.max(rssBefore, ...rssSamples), after: await rssMb(hostPid) });
    await printWebStages(bench.db, measuredSince);
    printProblems(host.output());
  } finally {
    for (const client of clients) client.close();
    await host?.stop('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
    await bench.close();
  }
}

function report(clients: BenchChatClient[], sendSeconds: number, rss: { before: number; peak: number; after: number }): void {
  const latencies = clients.flatMap((client) => client.latencies);
  const sent = clients.reduce((sum, client) => sum + client.sent, 0);
  const unanswered = clients.reduce((sum, client) => sum + client.outstanding, 0);
  const errors = clients.reduce((sum, client) => sum + client.errors, 0);
  const { p50Ms, p99Ms } = latencyPercentiles(latencies);
  const acks = latencyPercentiles(clients.flatMap((client) => client.ackLatencies));
  printTable('live chat: send → reply', [
    ['measure', 'value'],
    ['messages sent', formatRate(sent)],
    ['replies received', formatRate(latencies.length)],
    ['unanswered after 10 s', formatRate(unanswered)],
    ['error frames', formatRate(errors)],
    ['replies/s', formatRate(latencies.length / sendSeconds)],
    ['p50 send → reply', formatMs(p50Ms)],
    ['p99 send → reply', formatMs(p99Ms)],
    ['p50 / p99 send → ack (committed)', `${formatMs(acks.p50Ms)} / ${formatMs(acks.p99Ms)}`],
    ['host RSS before / peak / after', `${rss.before} / ${rss.peak} / ${rss.after} MB`],
  ]);
  const met = p99Ms < 200 && unanswered === 0 && errors === 0;
  console.log(`\ntarget (p99 < 200 ms, every message answered): ${met ? 'met' : 'NOT met'}`);
}

/** The host's resident set size from /proc (Linux), in MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Warnings and errors the host logged during the run. */
function printProblems(output: string): void {
  const problems = output.split('\n').filter((line) => /"level":(40|50|60)/.test(line));
  if (problems.length > 0) console.log(`\nhost logged ${problems.length} warning(s)/error(s); first: ${problems[0]!.slice(0, 300)}`);
}

/** The `profile` memory definition, the greeting workflow bound to it, and a `web` source; returns its ref. */
async function setUpWebSource(hostUrl: string): Promise<string> {
  const token = signAdminToken({ sub: 'web-benchmark', role: 'admin' }, AUTH_SECRET, { ttl: '1h' });
  const create = async (url: string, body: Record<string, unknown>) => {
    const response = await fetch(`${hostUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`${url} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, string>;
  };
  const definition = await create('/api/memory-definitions', {
    name: 'Profile',
    slug: 'profile',
    scope: 'global',
    schema: { type: 'object', properties: { name: { type: 'string', description: "The subscriber's first name" } } },
  });
  const yaml = bindDefinitionPlaceholders(await readFile(GREETING, 'utf8'), new Map([['profile', definition.id!]]));
  const workflow = await create('/api/workflows', { name: 'Bench greeting', yaml });
  const source = await create('/api/sources', { name: 'Bench web chat', channel: 'web', settings: {}, defaultWorkflowId: workflow.id });
  return source.ref!;
}

function readOptions(args: string[]): { clients: number; seconds: number; rate: number } {
  const { values } = parseArgs({
    args,
    options: { clients: { type: 'string', default: '500' }, seconds: { type: 'string', default: '20' }, rate: { type: 'string', default: '1' } },
  });
  const options = { clients: Number(values.clients), seconds: Number(values.seconds), rate: Number(values.rate) };
  for (const [name, value] of Object.entries(options)) if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return options;
}
