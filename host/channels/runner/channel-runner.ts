/**
 * Host side of one channel's runner: the process (sandboxed when the host can) that runs the
 * channel's plugin. It keeps one running: a runner that dies, or that the watchdog stops
 * for its memory or for CPU burned between calls, is started again with backoff, and until then
 * the channel's calls fail at once with `BOT_ERR_PLUGIN_RUNNER_DOWN` (a webhook answers 503, a
 * send is retried later). Each call is one IPC round trip.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  ChannelSource,
  ConnectContext,
  ConnectResult,
  HostServices,
  InboundAttachmentRef,
  PlainInboundEvent,
  PlainWebhookResponse,
  SendMessageOptions,
  SendMessageResult,
  StdOutgoingMessageEnvelope,
  WebhookRequest,
  WebSocketFrame,
} from '@bot-ai/api';
import type { ChannelCalls, ChannelRuntimeStatus } from '../calls/channel-calls.ts';
import { admitCall } from '../calls/admit-call.ts';
import { CallsInFlight } from '../calls/calls-in-flight.ts';
import { deliverSendResult, type FrameDelivery } from '../calls/frame-delivery.ts';
import type { SandboxLogger } from '../calls/sandbox-logger.ts';
import type { ChannelDescription, PlainSubscriberData, PlainWebhookRequest, ReceiveFrameResult, ReceiveWebhookResult, SendTaskResult } from '../plugin-side/protocol.ts';
import { pickSource } from '../calls/pick-source.ts';
import { SandboxError } from '../plugin-side/sandbox-error.ts';
import type { Isolation } from './detect-isolation.ts';
import { pluginReadPaths, type ReadableTree } from './plugin-read-paths.ts';
import { processTreeUsage } from './process-tree-usage.ts';
import { runnerCommand } from './runner-command.ts';
import { runnerSeccomp } from './runner-seccomp.ts';
import { judgeUsage, type RunnerLimits, type WatchState } from './runner-limits.ts';
import { allocateRunnerIdentity } from './runner-identity.ts';
import { RunnerProcess } from './runner-process.ts';
import type { RunnerCall, RunnerPoolOptions } from './runner-protocol.ts';
import { runnerBundle, type RunnerBundle } from './runner-bundle.ts';
import { runtimeFiles } from './runtime-files.ts';

export interface ChannelRunnerOptions {
  /** Real path of the `*.channel.js` file. */
  file: string;
  /** Label in logs and errors (the file as discovered). */
  label: string;
  isolation: Isolation;
  limits: RunnerPoolOptions;
  /** Largest frame the runner may send (its biggest answer, or egress request, encoded). */
  maxFrameBytes: number;
  hostServices: HostServices;
  logger: SandboxLogger;
  frameDelivery?: FrameDelivery;
  watchdog: RunnerLimits;
  /** Backoff between restarts: doubles from `initialMs` up to `maxMs`. */
  restartDelay: { initialMs: number; maxMs: number };
  /** Told of each unplanned end of the runner (metrics). */
  onExit?(reason: string): void;
  /** Folders of the host the runner never reads, wherever a link leads (the data directory). */
  privatePaths?: string[];
}

/** Beyond the runner's own call limit, the time it has to answer before it counts as stuck. */
const RUNNER_GRACE_MS = 2_000;
/** A runner up this long has recovered: its next failure restarts it after the first delay again. */
const STABLE_AFTER_MS = 60_000;

export class ChannelRunner implements ChannelCalls {
  readonly #options: ChannelRunnerOptions;
  readonly #bundle: RunnerBundle;
  readonly #readable: ReadableTree;
  #process: RunnerProcess | undefined;
  #state: ChannelRuntimeStatus['state'] = 'starting';
  #restarts = 0;
  #failuresInARow = 0;
  #lastExit: ChannelRuntimeStatus['lastExit'];
  #startedAt = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #watch: WatchState = { lastCpuMs: undefined, strikes: 0 };
  #calledSinceLastLook = false;
  #seccompSeen: { pid: number; seen: boolean } | undefined;
  readonly #inFlight = new CallsInFlight();

  private constructor(options: ChannelRunnerOptions, bundle: RunnerBundle) {
    this.#options = options;
    this.#bundle = bundle;
    this.#readable = pluginReadPaths(options.file, bundle.readable, { privatePaths: options.privatePaths ?? [] });
  }

  /** Starts the runner and resolves once it has loaded the plugin (which `describe()` then reports on). */
  static async start(options: ChannelRunnerOptions): Promise<ChannelRunner> {
    const bundle = await runnerBundle((error) => options.logger.warn({ err: error }, 'The channel runner could not be bundled; runners run its TypeScript sources (about 35 MB more each)'));
    const runner = new ChannelRunner(options, bundle);
    try {
      await runner.#spawn();
    } catch (error) {
      await runner.close();
      throw error;
    }
    runner.#watchdog = setInterval(() => runner.#look(), options.watchdog.intervalMs).unref();
    return runner;
  }

  status(): ChannelRuntimeStatus {
    const { tier, reason, detail } = this.#options.isolation;
    const pid = this.#process?.pid;
    return { isolation: tier, isolationReason: reason, isolationDetail: detail, seccomp: this.#seccomp(pid), state: this.#state, pid, restarts: this.#restarts, lastExit: this.#lastExit };
  }

  /**
   * Read from /proc once per runner process: a filter, once loaded, stays for the process's life,
   * and the reading walks every thread of the tree (channel listings ask for the status often).
   */
  #seccomp(pid: number | undefined): boolean | undefined {
    if (pid === undefined) return undefined;
    if (this.#seccompSeen?.pid !== pid) {
      const seen = runnerSeccomp(pid, this.#options.isolation.tier);
      // Kept only once the runner has answered (its Node runs, under the filter if any): while it
      // starts, bubblewrap's child may not have loaded the filter yet.
      if (seen === undefined || this.#state !== 'running') return seen;
      this.#seccompSeen = { pid, seen };
    }
    return this.#seccompSeen.seen;
  }

  describe(): Promise<ChannelDescription> {
    return this.#call({ type: 'channel.describe' }) as Promise<ChannelDescription>;
  }

  verifyWebhook(req: PlainWebhookRequest | WebhookRequest, source: ChannelSource): Promise<PlainWebhookResponse> {
    return this.#call({ type: 'channel.verifyWebhook', request: plainRequest(req), source: pickSource(source) }) as Promise<PlainWebhookResponse>;
  }

  receiveWebhook(req: PlainWebhookRequest | WebhookRequest, source: ChannelSource): Promise<ReceiveWebhookResult> {
    return this.#call({ type: 'channel.receiveWebhook', request: plainRequest(req), source: pickSource(source) }) as Promise<ReceiveWebhookResult>;
  }

  receiveFrame(frame: WebSocketFrame, source: ChannelSource): Promise<ReceiveFrameResult> {
    return this.#call({ type: 'channel.receiveFrame', frame, source: pickSource(source) }) as Promise<ReceiveFrameResult>;
  }

  /** A WebSocket channel's encoded frame goes to `frameDelivery`, whose answer is the send's. */
  async send(event: PlainInboundEvent, source: ChannelSource, envelope: StdOutgoingMessageEnvelope, options: SendMessageOptions): Promise<SendMessageResult> {
    const call = { type: 'channel.send' as const, event, source: pickSource(source), envelope, options, taskId: randomUUID() };
    const result = (await this.#call(call)) as SendTaskResult;
    return deliverSendResult({ event, source, options, result, label: this.#options.label }, this.#options.frameDelivery);
  }

  subscriberData(event: PlainInboundEvent, source: ChannelSource): Promise<PlainSubscriberData> {
    return this.#call({ type: 'channel.subscriberData', event, source: pickSource(source) }) as Promise<PlainSubscriberData>;
  }

  async typing(event: PlainInboundEvent, source: ChannelSource): Promise<void> {
    await this.#call({ type: 'channel.typing', event, source: pickSource(source) });
  }

  connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
    return this.#call({ type: 'channel.connect', source: pickSource(source), context: { webhookUrl: context.webhookUrl } }) as Promise<ConnectResult>;
  }

  messageAttachments(event: PlainInboundEvent, source: ChannelSource): Promise<InboundAttachmentRef[]> {
    return this.#call({ type: 'channel.messageAttachments', event, source: pickSource(source) }) as Promise<InboundAttachmentRef[]>;
  }

  /** Refuses new calls, lets the runner finish those in flight (each bounded by its timeout), then stops it. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearTimeout(this.#restartTimer);
    await this.#inFlight.drained();
    clearInterval(this.#watchdog);
    await this.#process?.close(RUNNER_GRACE_MS);
  }

  async #call(call: RunnerCall): Promise<unknown> {
    const runner = this.#process;
    admitCall({
      label: this.#options.label,
      closed: this.#state === 'closed',
      unavailable: this.#state !== 'running' || !runner ? () => this.#downError() : undefined,
      queued: this.#inFlight.size,
      maxQueue: this.#options.limits.maxQueue,
      full: 'too many calls in flight',
    });
    this.#calledSinceLastLook = true;
    try {
      // admitCall refused the call unless the runner is running.
      return await this.#inFlight.track(runner!.call(call, this.#options.limits.callTimeoutMs + RUNNER_GRACE_MS));
    } finally {
      this.#calledSinceLastLook = true;
    }
  }

  async #spawn(): Promise<void> {
    const { isolation, limits } = this.#options;
    const command = runnerCommand({
      tier: isolation.tier,
      readable: this.#readable,
      runtime: runtimeFiles(),
      maxHeapMb: limits.maxHeapMb,
      bwrapPath: isolation.bwrapPath,
      seccomp: isolation.seccomp,
      entry: this.#bundle.entry,
    });
    // Its own uid: without a PID namespace (the reduced tier), runners could signal each other.
    const identity = allocateRunnerIdentity();
    let runner: RunnerProcess;
    try {
      runner = new RunnerProcess({
        command,
        identity: identity.spawn,
        fileUrl: pathToFileURL(path.resolve(this.#options.file)).href,
        label: this.#options.label,
        limits,
        maxFrameBytes: this.#options.maxFrameBytes,
        ...(this.#options.watchdog.wireBudget ? { wireBudget: this.#options.watchdog.wireBudget } : {}),
        hostServices: this.#options.hostServices,
        logger: this.#options.logger,
      });
    } catch (error) {
      identity.release();
      throw error;
    }
    this.#process = runner;
    this.#watch = { lastCpuMs: undefined, strikes: 0 };
    void runner.exited().then((reason) => {
      identity.release();
      this.#exited(runner, reason);
    });
    await runner.ready(limits.startTimeoutMs);
    // Closed while it started (a disable, a rescan, a shutdown): it must not come to life.
    if (this.#state === 'closed') {
      await runner.close(RUNNER_GRACE_MS);
      return;
    }
    this.#state = 'running';
    this.#startedAt = Date.now();
  }

  #exited(runner: RunnerProcess, reason: string): void {
    if (runner !== this.#process || this.#state === 'closed') return;
    this.#ended(reason);
  }

  /** The runner is gone (or never came): record why, and start another after the backoff. */
  #ended(reason: string): void {
    if (this.#state === 'closed') return;
    this.#lastExit = { reason, at: new Date().toISOString() };
    // Only a runner that served a while resets the backoff: one that dies while starting keeps
    // doubling it, however long ago the last good one started.
    const stable = this.#state === 'running' && Date.now() - this.#startedAt > STABLE_AFTER_MS;
    if (this.#state === 'running') {
      this.#options.logger.error({ channel: this.#options.label, reason }, 'A channel runner ended; it is restarted with backoff and the channel answers 503 meanwhile');
      this.#options.onExit?.(reason);
    }
    this.#state = 'restarting';
    this.#failuresInARow = stable ? 1 : this.#failuresInARow + 1;
    const { initialMs, maxMs } = this.#options.restartDelay;
    const delay = Math.min(maxMs, initialMs * 2 ** (Math.min(this.#failuresInARow, 30) - 1));
    this.#restartTimer = setTimeout(() => this.#restart(), delay).unref();
  }

  async #restart(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#restarts++;
    const previous = this.#process;
    try {
      await this.#spawn();
      this.#options.logger.info({ channel: this.#options.label, restarts: this.#restarts }, 'A channel runner is running again');
    } catch (error) {
      // A runner that started and failed exits (one that timed out is killed), and its exit
      // schedules the next attempt; one that could not be started at all schedules it here.
      if (this.#process === previous) this.#ended(`could not be started: ${(error as Error).message}`);
    }
  }

  /** The watchdog's look: memory of the whole process tree, and CPU burned with no call in flight. */
  #look(): void {
    const runner = this.#process;
    const pid = runner?.pid;
    if (this.#state !== 'running' || !runner || pid === undefined) return;
    const usage = processTreeUsage(pid);
    const idleThroughout = !runner.busy && !this.#calledSinceLastLook;
    this.#calledSinceLastLook = false;
    if (!usage) return;
    const verdict = judgeUsage(usage, idleThroughout, this.#watch, this.#options.watchdog);
    if (verdict) runner.kill(verdict);
  }

  #downError(): SandboxError {
    const why = this.#lastExit ? ` (its last runner ended: ${this.#lastExit.reason})` : '';
    return new SandboxError('BOT_ERR_PLUGIN_RUNNER_DOWN', `${this.#options.label}: the channel's runner is ${this.#state}${why}`);
  }
}

/** Only what the runner needs of the request: the exact bytes, never a parsed copy. */
function plainRequest(req: PlainWebhookRequest): PlainWebhookRequest {
  return { method: req.method, headers: req.headers, query: req.query, params: req.params, rawBody: req.rawBody };
}
