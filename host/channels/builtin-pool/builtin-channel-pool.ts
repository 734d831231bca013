/**
 * The thread pool of one of the SDK's trusted built-in channels: one Piscina pool per channel
 * file, in the host's own threads (package and local channels run in a runner process instead).
 * The channel's code only ever runs in its workers, with a heap limit, an empty environment and a
 * time limit per call; a worker that dies or overruns is replaced and costs only the calls it was
 * running.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  ChannelSource,
  ConnectContext,
  ConnectResult,
  InboundAttachmentRef,
  PlainInboundEvent,
  PlainWebhookResponse,
  SendMessageOptions,
  SendMessageResult,
  StdOutgoingMessageEnvelope,
  WebhookRequest,
  WebSocketFrame,
} from '@bot-ai/api';
import type { Piscina } from 'piscina';
import { admitCall } from '../calls/admit-call.ts';
import { CallsInFlight } from '../calls/calls-in-flight.ts';
import { deliverSendResult } from '../calls/frame-delivery.ts';
import { pickSource } from '../calls/pick-source.ts';
import { sendNotStarted } from '../calls/send-not-started.ts';
import { createThreadPool } from './create-thread-pool.ts';
import { exposeHostBridge } from './expose-host-bridge.ts';
import { mapPoolFailure } from './map-pool-failure.ts';
import type {
  ChannelDescription,
  PlainSubscriberData,
  PlainWebhookRequest,
  ReceiveFrameResult,
  ReceiveWebhookResult,
  SandboxReply,
  SandboxRequest,
  SandboxRequestType,
  SandboxResults,
  SendTaskResult,
  WorkerEventMessage,
} from '../plugin-side/protocol.ts';
import { deserializeError, errorCode, SandboxError } from '../plugin-side/sandbox-error.ts';
import { checkBuiltinPoolOptions, type BuiltinChannelPoolOptions } from './builtin-pool-options.ts';
import { ServedSources } from './served-sources.ts';
import { withTimeout } from '../plugin-side/with-timeout.ts';

export type { BuiltinChannelPoolOptions } from './builtin-pool-options.ts';

const DEFAULT_START_TIMEOUT_MS = 10_000;

type RunOptions = NonNullable<Parameters<Piscina['run']>[1]>;

/**
 * A built-in channel's thread pool. Every method is one task in a worker and rejects with a SandboxError whose
 * `code` says what went wrong (`BOT_ERR_PLUGIN_CALL_TIMEOUT`, `…_WORKER_CRASHED`, `…_THREW`, …).
 * @example
 * const pool = await BuiltinChannelPool.start({ file, callTimeoutMs: 2000, maxHeapMb: 64, idleTimeoutMs: 30000,
 *   maxQueue: 100, maxThreads: 2, hostServices, logger });
 * const { name, settingsJsonSchema } = await pool.describe();
 * const result = await pool.receiveWebhook(request, source);
 * await pool.close();
 */
export class BuiltinChannelPool {
  readonly #pool: Piscina;
  readonly #label: string;
  readonly #options: BuiltinChannelPoolOptions;
  readonly #inFlight = new CallsInFlight();
  /** The sources of the calls in flight: the only ones a worker's service request may act for. */
  readonly #served = new ServedSources();
  readonly #loadedThreads = new Set<number>();
  /** Sends queued or running whose worker has not yet said it started them. */
  readonly #pendingSends = new Set<string>();
  readonly #loadWaiters: Array<() => void> = [];
  #closing: Promise<void> | undefined;

  private constructor(pool: Piscina, label: string, options: BuiltinChannelPoolOptions) {
    this.#pool = pool;
    this.#label = label;
    this.#options = options;
  }

  /**
   * Starts the pool and resolves once its first worker has imported and checked the plugin, so
   * the first call does not pay for the start (rejects with `BOT_ERR_PLUGIN_START_TIMEOUT` when
   * that takes longer than `startTimeoutMs`). A failed check is reported by `describe()`.
   */
  static async start(options: BuiltinChannelPoolOptions): Promise<BuiltinChannelPool> {
    checkBuiltinPoolOptions(options);
    const fileUrl = options.file.startsWith('file:') ? options.file : pathToFileURL(path.resolve(options.file)).href;
    const pool = new BuiltinChannelPool(createThreadPool(fileUrl, options), options.name ?? fileUrl, options);
    pool.#listen();
    try {
      await pool.ready(options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /**
   * Resolves once a live worker has loaded the plugin: at start, and again once a worker that
   * died has been replaced (Piscina starts the replacement; this waits for it to load).
   */
  async ready(timeoutMs = DEFAULT_START_TIMEOUT_MS): Promise<void> {
    if (this.#hasLoadedWorker()) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#loadWaiters.push(resolve);
    await withTimeout(promise, timeoutMs, () => new SandboxError('BOT_ERR_PLUGIN_START_TIMEOUT', `${this.#label}: the plugin did not load within ${timeoutMs} ms`));
  }

  /** Name, kind, settings JSON Schema and capabilities; rejects with the failed check's code. */
  describe(): Promise<ChannelDescription> {
    return this.#run({ type: 'channel.describe' });
  }

  /** The platform's GET handshake: what the handler wrote, to replay onto the HTTP response. */
  verifyWebhook(req: PlainWebhookRequest | WebhookRequest, source: ChannelSource): Promise<PlainWebhookResponse> {
    const [request, transferList] = toPlainRequest(req);
    return this.#run({ type: 'channel.verifyWebhook', request, source: pickSource(source) }, transferList);
  }

  /**
   * verifySignature + decode in one task: accepted with plain events, rejected (401) or invalid
   * (400). The worker parses the body from `rawBody`; a `body` given here is not sent.
   */
  receiveWebhook(req: PlainWebhookRequest | WebhookRequest, source: ChannelSource): Promise<ReceiveWebhookResult> {
    const [request, transferList] = toPlainRequest(req);
    return this.#run({ type: 'channel.receiveWebhook', request, source: pickSource(source) }, transferList);
  }

  /** A WebSocket channel's decodeFrame: accepted with plain events (sent by the frame's session), or invalid. */
  receiveFrame(frame: WebSocketFrame, source: ChannelSource): Promise<ReceiveFrameResult> {
    return this.#run({ type: 'channel.receiveFrame', frame, source: pickSource(source) });
  }

  /**
   * Sends one envelope in reply to `event`; resolves with the platform's message id. A send that
   * times out or loses its worker before the plugin was called rejects with
   * `BOT_ERR_PLUGIN_SEND_NOT_STARTED`: it waited in the queue, so the platform surely did not get it.
   * A WebSocket channel only encodes the envelope; the frame goes to `frameDelivery`, whose
   * answer is the send's.
   */
  async send(event: PlainInboundEvent, source: ChannelSource, envelope: StdOutgoingMessageEnvelope, options: SendMessageOptions): Promise<SendMessageResult> {
    const result = await this.#send(event, source, envelope, options);
    return deliverSendResult({ event, source, options, result, label: this.#label }, this.#options.frameDelivery);
  }

  async #send(event: PlainInboundEvent, source: ChannelSource, envelope: StdOutgoingMessageEnvelope, options: SendMessageOptions): Promise<SendTaskResult> {
    const taskId = randomUUID();
    this.#pendingSends.add(taskId);
    try {
      return await this.#run({ type: 'channel.send', event, source: pickSource(source), envelope, options, taskId });
    } catch (error) {
      const code = errorCode(error);
      if (this.#pendingSends.has(taskId) && (code === 'BOT_ERR_PLUGIN_CALL_TIMEOUT' || code === 'BOT_ERR_PLUGIN_WORKER_CRASHED')) throw sendNotStarted(this.#label, undefined, error);
      throw error;
    } finally {
      this.#pendingSends.delete(taskId);
    }
  }

  /** The new subscriber's fields for `event`, validated, dates as ISO strings. */
  subscriberData(event: PlainInboundEvent, source: ChannelSource): Promise<PlainSubscriberData> {
    return this.#run({ type: 'channel.subscriberData', event, source: pickSource(source) });
  }

  /** Calls the plugin's `sendTypingIndicator` for the subscriber of `event`. */
  async typing(event: PlainInboundEvent, source: ChannelSource): Promise<void> {
    await this.#run({ type: 'channel.typing', event, source: pickSource(source) });
  }

  /** The plugin's connect step for `source`, its answer validated. */
  connect(source: ChannelSource, context: ConnectContext): Promise<ConnectResult> {
    return this.#run({ type: 'channel.connect', source: pickSource(source), context: { webhookUrl: context.webhookUrl } });
  }

  /** The download references of `event`'s files, validated, in order. */
  messageAttachments(event: PlainInboundEvent, source: ChannelSource): Promise<InboundAttachmentRef[]> {
    return this.#run({ type: 'channel.messageAttachments', event, source: pickSource(source) });
  }

  /** Refuses new calls, waits for the calls in flight (each bounded by its timeout), then stops the workers. */
  close(): Promise<void> {
    this.#closing ??= this.#inFlight.drained().then(() => this.#pool.destroy());
    return this.#closing;
  }

  /** Serves the host bridge to each worker and notes which workers have loaded the plugin. */
  #listen(): void {
    const { hostServices, logger } = this.#options;
    this.#pool.on('message', (message: WorkerEventMessage) => {
      if (message?.type === 'sandbox.bridge.open') exposeHostBridge(message.port, hostServices, logger, { channel: this.#label }, this.#served);
      if (message?.type === 'sandbox.worker.loaded') this.#workerLoaded(message.threadId);
      if (message?.type === 'sandbox.task.started') this.#pendingSends.delete(message.taskId);
    });
    // A worker dying between calls (a plugin's stray timer throwing) must not become an unhandled 'error'.
    this.#pool.on('error', (error: unknown) => logger.error({ channel: this.#label, err: error }, 'A channel worker failed outside a call'));
  }

  #workerLoaded(threadId: number): void {
    const live = new Set(this.#pool.threads.map((worker) => worker.threadId));
    for (const id of this.#loadedThreads) if (!live.has(id)) this.#loadedThreads.delete(id);
    this.#loadedThreads.add(threadId);
    for (const resolve of this.#loadWaiters.splice(0)) resolve();
  }

  #hasLoadedWorker(): boolean {
    return this.#pool.threads.some((worker) => this.#loadedThreads.has(worker.threadId));
  }

  async #run<K extends SandboxRequestType>(request: Extract<SandboxRequest, { type: K }>, transferList: ArrayBuffer[] = []): Promise<SandboxResults[K]> {
    this.#admit();
    const leave = this.#served.enter('source' in request ? request.source.id : undefined);
    try {
      return (await this.#inFlight.track(this.#call(request, transferList))) as SandboxResults[K];
    } finally {
      leave();
    }
  }

  #admit(): void {
    // The queue is checked here too because Piscina's own refusal carries no code.
    admitCall({ label: this.#label, closed: this.#closing !== undefined, queued: this.#pool.queueSize, maxQueue: this.#options.maxQueue, full: 'the task queue is full' });
  }

  async #call(request: SandboxRequest, transferList: ArrayBuffer[]): Promise<unknown> {
    const timeoutMs = this.#options.callTimeoutMs;
    const signal = AbortSignal.timeout(timeoutMs);
    let reply: SandboxReply<unknown>;
    try {
      // Piscina infers its transferList type from MessagePort.postMessage's last overload, which
      // @types/node 26 declares as the options form; Piscina passes the array straight through.
      reply = await this.#pool.run(request, { signal, transferList: transferList as unknown as RunOptions['transferList'] });
    } catch (error) {
      throw mapPoolFailure(error, { timedOut: signal.aborted, channel: this.#label, task: request.type, timeoutMs });
    }
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.value;
  }
}

/**
 * Copies the body into a buffer of its own before transferring it: a request's Buffer may be a
 * view on Node's shared pool, which a transfer would detach. The parsed body stays behind: the
 * worker parses the bytes itself, which costs less than cloning the parsed object across.
 */
function toPlainRequest(req: PlainWebhookRequest): [PlainWebhookRequest, ArrayBuffer[]] {
  const rawBody = new Uint8Array(req.rawBody);
  return [{ method: req.method, headers: req.headers, query: req.query, params: req.params, rawBody }, [rawBody.buffer]];
}
