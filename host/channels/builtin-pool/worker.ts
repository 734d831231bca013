/**
 * The Piscina worker entry of a built-in channel's thread pool (the SDK's trusted built-in
 * channels). At start it opens the host bridge, then imports, checks and constructs the plugin
 * once; each task is then one call into the handler (runTask).
 *
 * Runs without tsx (Node's own type stripping): this file and what it imports must use erasable
 * TypeScript only — no enums, namespaces or constructor parameter properties.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { loadChannelHandler } from '../plugin-side/load-channel-handler.ts';
import { openHostBridge } from '../plugin-side/open-host-bridge.ts';
import type { SandboxReply, SandboxRequest, SandboxWorkerData, TaskStartedMessage, WorkerLoadedMessage } from '../plugin-side/protocol.ts';
import { runTask } from '../plugin-side/run-task.ts';

const { fileUrl, hostCallTimeoutMs } = workerData as SandboxWorkerData;
openHostBridge(hostCallTimeoutMs);
const loading = loadChannelHandler(fileUrl);
// A failed load is the answer to every task (left unhandled, it would kill the worker instead);
// either way the host learns the worker is ready.
const loaded: WorkerLoadedMessage = { type: 'sandbox.worker.loaded', threadId };
loading.then(
  () => parentPort!.postMessage(loaded),
  () => parentPort!.postMessage(loaded),
);

/** Runs one task; never throws, so Piscina only ever sees a crash when the worker really dies. */
export default function runSandboxTask(request: SandboxRequest): Promise<SandboxReply<unknown>> {
  return runTask(loading, request, (taskId) => {
    const started: TaskStartedMessage = { type: 'sandbox.task.started', taskId };
    parentPort!.postMessage(started);
  });
}
