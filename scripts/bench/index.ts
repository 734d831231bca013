/**
 * `npm run bench -- <name>`: runs one benchmark. Each is a module exporting `run()`, loaded only
 * when asked for, so a broken benchmark never stops the others from running.
 */
const BENCHMARKS: Record<string, { description: string; load: () => Promise<{ run(): Promise<void> }> }> = {
  memory: {
    description: 'memory records: upserts, batched upserts, working-memory load, TTL sweep under write load',
    load: async () => ({ run: (await import('./memory.ts')).runMemoryBenchmark }),
  },
  ingest: {
    description: 'webhook intake over HTTP: production path (sandbox + durable inbox), batching off, and a no-database baseline',
    load: async () => ({ run: (await import('./ingest.ts')).runIngestBenchmark }),
  },
  e2e: {
    description: 'webhook to reply: signed webhooks through the greeting workflow to a fake platform, at a fixed rate and at saturation',
    load: async () => ({ run: (await import('./e2e.ts')).runE2eBenchmark }),
  },
  burst: {
    description: 'users typing quickly: one subscriber × 20 back to back, then 10 × 5 at once, through the greeting workflow; last post → last reply, post → reply p50/p99, order, claims by trigger',
    load: async () => ({ run: (await import('./burst.ts')).runBurstBenchmark }),
  },
  web: {
    description: 'live chat: WebSocket clients send messages to the greeting workflow through a web source; send → reply latency, host RSS',
    load: async () => ({ run: (await import('./web.ts')).runWebBenchmark }),
  },
  'admin-editor': { description: 'the workflow editor: admin bundle gzip per chunk, editor page load vs the Memory list (Chromium), typing latency in 19 and 2,000 lines, flow redraw at 200 steps', load: async () => ({ run: (await import('./admin-editor.ts')).runAdminEditorBenchmark }) },
  install: {
    description: 'channel packages: request → serving for the sample package, cold from a local registry and cached (rollback), and failed webhooks during an upgrade at 100 webhooks/s',
    load: async () => ({ run: (await import('./install.ts')).runInstallBenchmark }),
  },
  chaos: {
    description: 'faults under load: two instances, one SIGKILLed and a PostgreSQL restart mid-run; sent/acknowledged/processed/lost/duplicated, one instance vs two',
    load: async () => ({ run: (await import('./chaos.ts')).runChaosBenchmark }),
  },
};

const name = process.argv[2];
const benchmark = name ? BENCHMARKS[name] : undefined;
if (!benchmark) {
  console.error(name ? `Unknown benchmark "${name}".` : 'Name a benchmark to run.');
  console.error('Usage: npm run bench -- <name>\nAvailable:');
  for (const [available, { description }] of Object.entries(BENCHMARKS)) console.error(`  ${available.padEnd(10)} ${description}`);
  process.exit(1);
}
await (await benchmark.load()).run();
