import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SandboxWorkerData } from '../plugin-side/protocol.ts';
import type { BuiltinChannelPoolOptions } from './builtin-pool-options.ts';

// worker.ts when the host runs from source, worker.js once compiled: the extension of this module.
const WORKER_URL = new URL(`./worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url).href;

/** The Piscina pool of one built-in channel file, with its limits. */
export function createThreadPool(fileUrl: string, options: BuiltinChannelPoolOptions): Piscina {
  const workerData: SandboxWorkerData = { fileUrl, hostCallTimeoutMs: options.hostCallTimeoutMs ?? Math.ceil(options.callTimeoutMs / 2) };
  return new Piscina({
    filename: WORKER_URL,
    workerData,
    env: {}, // no host secret is visible to plugin code
    // Not the host's flags (`--import tsx`, the test runner's): Node strips the worker's TS types
    // itself, which starts a worker in about half the time and leaves the heap limit to the plugin.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
    idleTimeout: options.idleTimeoutMs,
    maxQueue: options.maxQueue,
    minThreads: 1, // one warm worker per channel, so a webhook never waits for a start
    maxThreads: options.maxThreads,
    // An idle worker waits on its port, not in Atomics.wait, so its event loop keeps running: it
    // finishes importing the plugin, and reports it, before its first task arrives.
    atomics: 'disabled',
  });
}
