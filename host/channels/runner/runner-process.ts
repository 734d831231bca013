/**
 * Host side of one runner process: starts it, matches calls with their answers over its wire
 * (fd 3, runner-frames.ts), serves the host services plugin code asks for, and reports its end
 * once. Every call has a time limit: a runner that does not answer is killed, not waited for; so
 * is one that breaks the protocol (a frame too long or not JSON, a message of no known shape).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { HostServices } from '@bot-ai/api';
import { codesWhere } from '../../errors/codes-where.ts';
import type { SandboxLogger } from '../calls/sandbox-logger.ts';
import { sendNotStarted } from '../calls/send-not-started.ts';
import type { SandboxReply } from '../plugin-side/protocol.ts';
import { deserializeError, SandboxError, serializeError, type SerializedError } from '../plugin-side/sandbox-error.ts';
import { forwardOutput } from './forward-output.ts';
import { maskStrayDescriptors } from './stray-descriptors.ts';
import { LineRateLimit } from '../../logging/line-rate-limit.ts';
import { passSeccompFilter, withSeccompStdio } from './seccomp/seccomp-fd.ts';
import { FrameReader, FrameWriter } from './runner-frames.ts';
import { DEFAULT_WIRE_BUDGET, frameChargeCeilingMs, WirePace, type WireBudgetRates } from './wire-budget.ts';
import { callSourceArgs } from './call-source-args.ts';
import { isRunnerMessage, type HostToRunnerMessage, type RunnerCall, type RunnerPoolOptions, type RunnerToHostMessage } from './runner-protocol.ts';
import type { RunnerCommand } from './runner-command.ts';

export interface RunnerProcessOptions {
  command: RunnerCommand;
  /** spawn's uid/gid, set when the host drops root for its runners. */
  identity: { uid?: number; gid?: number };
  fileUrl: string;
  label: string;
  limits: RunnerPoolOptions;
  /** Largest frame the runner may send: a bigger one ends it. */
  maxFrameBytes: number;
  /** How much of the host's thread its wire may take; DEFAULT_WIRE_BUDGET by default. */
  wireBudget?: WireBudgetRates;
  hostServices: HostServices;
  logger: SandboxLogger;
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** For sends: whether the plugin has the send in hand (see `runner.send.started`). */
  started: boolean;
  isSend: boolean;
  timer: NodeJS.Timeout;
  /** The source this call serves, as the host sent it: what the call's service requests act for. */
  sourceId: string | undefined;
}

/** What is kept of a message too long for one log line. */
const MAX_LOG_MESSAGE_CHARS = 8_192;
/** A plugin's log fields larger than this (as JSON) are replaced by a note: one line, bounded. */
const MAX_LOG_FIELDS_CHARS = 8_192;
/** Plugin log lines a second that reach the host's log (console output; stdout has its own budget). */
const MAX_LOG_LINES_PER_SECOND = 200;
/**
 * Host services one runner may have in progress at once; more wait their turn, in order, up to
 * MAX_QUEUED_SERVICE_CALLS, and beyond that are refused. A channel sending a reply per event in
 * flight (the dispatcher runs 64 at once) must wait, not fail: refused sends were retried seconds
 * later and capped throughput (`npm run bench -- e2e`).
 */
const MAX_SERVICE_CALLS = 16;
const MAX_QUEUED_SERVICE_CALLS = 1_024;
/**
 * What a host service call is charged beyond the time its frame took: the work it starts (an
 * egress request's checks, its answer's frame) runs later, out of the wire's timing.
 */
const SERVICE_CALL_CHARGE_MS = 0.02;
/**
 * Codes only the host gives a call's failure: they tell the outbox the platform surely did not
 * get a send. A runner answering with one of them is not believed (the plugin could have sent).
 */
const HOST_RESERVED_CODES = codesWhere('hostOnly');

export class RunnerProcess {
  readonly #child: ChildProcess;
  readonly #wire: Duplex;
  readonly #reader: FrameReader;
  readonly #writer: FrameWriter;
  readonly #options: RunnerProcessOptions;
  readonly #calls = new Map<number, PendingCall>();
  readonly #ready = Promise.withResolvers<void>();
  readonly #exited = Promise.withResolvers<string>();
  #nextId = 1;
  #killReason: string | undefined;
  #stderrTail: string[] = [];
  #exitReason: string | undefined;
  #serviceCalls = 0;
  /** Service calls waiting for a slot: each is handed the slot of a call that ends. */
  readonly #serviceQueue: (() => void)[] = [];
  readonly #logLimit: LineRateLimit;
  readonly #pace: WirePace;

  constructor(options: RunnerProcessOptions) {
    this.#options = options;
    this.#logLimit = new LineRateLimit(MAX_LOG_LINES_PER_SECOND, (count) =>
      options.logger.warn({ channel: options.label, dropped: count }, `${count} log lines of the channel's plugin dropped (more than ${MAX_LOG_LINES_PER_SECOND} a second)`),
    );
    this.#ready.promise.catch(() => {});
    this.#child = spawn(options.command.command, options.command.args, {
      // fd 3 is the wire: a socket pair of its own, not Node's IPC channel (see runner-frames.ts);
      // fd 4, in the sandbox tier, the seccomp filter bubblewrap reads (and closes) before Node starts;
      // above them, /dev/null over whatever the host itself inherited open across exec.
      stdio: maskStrayDescriptors(withSeccompStdio(['ignore', 'pipe', 'pipe', 'pipe'], options.command.seccomp)),
      env: {}, // the runner sees no host environment
      // A process group of its own: a terminal's Ctrl-C (SIGINT to the whole group) reaches the
      // host, which closes its runners in order. A runner never outlives the host anyway: it
      // exits when its wire closes, and bubblewrap's --die-with-parent kills the sandbox.
      detached: true,
      ...options.identity,
    });
    passSeccompFilter(this.#child, options.command.seccomp);
    this.#wire = this.#child.stdio[3] as Duplex;
    const { hostMsPerSecond } = options.wireBudget ?? DEFAULT_WIRE_BUDGET;
    this.#pace = new WirePace(this.#wire, { hostMsPerSecond }, (pauseMs) =>
      options.logger.warn({ channel: options.label, pauseMs }, `The channel's runner takes more than ${hostMsPerSecond} ms a second of the host's thread: its wire is read at that pace`),
    );
    this.#reader = new FrameReader(options.maxFrameBytes);
    this.#writer = new FrameWriter(this.#wire);
    this.#wire.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#wire.on('error', () => this.kill('its wire failed'));
    forwardOutput(this.#child, options.logger, { channel: options.label }, (tail) => (this.#stderrTail = tail));
    this.#child.on('error', (error) => this.#ended(`could not start: ${error.message}`));
    // Gone: what it wrote is read off at once, so its wire ends and 'close' comes without waiting out a pause.
    this.#child.on('exit', () => this.#pace.release());
    // 'close', not 'exit': by then stderr is read to its end, and its last lines say why.
    this.#child.on('close', (code, signal) => this.#ended(this.#killReason ?? describeExit(code, signal, this.#stderrTail)));
    this.#send({ type: 'runner.init', fileUrl: options.fileUrl, label: options.label, limits: options.limits });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Calls in flight: a runner burning CPU with none is not working for the host. */
  get busy(): boolean {
    return this.#calls.size > 0;
  }

  /** Resolves once the runner has loaded the plugin; rejects when it fails or takes too long. */
  async ready(timeoutMs: number): Promise<void> {
    const timer = setTimeout(() => {
      this.kill(`did not start within ${timeoutMs} ms`);
      this.#ready.reject(new SandboxError('BOT_ERR_PLUGIN_START_TIMEOUT', `${this.#options.label}: the runner did not load the plugin within ${timeoutMs} ms`));
    }, timeoutMs);
    try {
      await this.#ready.promise;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves with the reason once the process has ended. */
  exited(): Promise<string> {
    return this.#exited.promise;
  }

  call(call: RunnerCall, timeoutMs: number): Promise<unknown> {
    // Killed but not yet gone: nothing sent now would be answered.
    if (this.#exitReason !== undefined || this.#killReason !== undefined) return Promise.reject(this.#downError());
    const id = this.#nextId++;
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    const timer = setTimeout(() => this.#timedOut(id, call.type, timeoutMs), timeoutMs);
    const sourceId = 'source' in call ? call.source.id : undefined;
    this.#calls.set(id, { resolve, reject, started: false, isSend: call.type === 'channel.send', timer, sourceId });
    this.#send({ type: 'runner.call', id, call });
    return promise;
  }

  /** Ends the process at once (SIGKILL); `reason` is what its exit is reported as. */
  kill(reason: string): void {
    if (this.#exitReason !== undefined) return;
    this.#killReason ??= reason;
    this.#child.kill('SIGKILL');
    this.#pace.release();
  }

  /** Asks the runner to drain and stop; kills it after `graceMs`. */
  async close(graceMs: number): Promise<void> {
    if (this.#exitReason !== undefined) return;
    this.#killReason ??= 'closed';
    this.#send({ type: 'runner.close' });
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    await this.#exited.promise;
    clearTimeout(timer);
  }

  #send(message: HostToRunnerMessage): void {
    if (this.#exitReason === undefined && this.#wire.writable) this.#writer.write(message);
  }

  /** A runner that breaks the protocol is broken or hostile: it is ended, never trusted further. */
  #read(chunk: Buffer): void {
    // A runner being killed is no longer listened to: nothing it still sends starts anything.
    if (this.#killReason !== undefined || this.#exitReason !== undefined) return;
    let charged = 0;
    let messages: unknown[];
    try {
      messages = this.#reader.push(chunk);
    } catch (error) {
      return this.kill(`broke the protocol: ${(error as Error).message}`);
    }
    const framed = this.#reader.framed;
    for (const [index, message] of messages.entries()) {
      if (!isRunnerMessage(message)) return this.kill('broke the protocol: a message of no known shape');
      const handleStarted = performance.now();
      try {
        this.#handle(message);
      } catch (error) {
        // Whatever a runner sends must not throw in the host's event loop.
        return this.kill(`sent a message the host could not handle: ${(error as Error).message}`);
      }
      // Each frame pays for its own parse and dispatch, no more than its bytes could cost: a
      // stall of the host's that falls in it (a collection, a blocked log write) is not its doing.
      const { bytes, parseMs } = framed[index]!;
      charged += Math.min(parseMs + performance.now() - handleStarted, frameChargeCeilingMs(bytes)) + (message.type === 'runner.service' ? SERVICE_CALL_CHARGE_MS : 0);
    }
    this.#pace.spend(charged);
  }

  #handle(message: RunnerToHostMessage): void {
    switch (message.type) {
      case 'runner.ready':
        return this.#ready.resolve();
      case 'runner.closed':
        return;
      case 'runner.init.failed':
        return this.#ready.reject(deserializeError(message.error));
      case 'runner.reply':
        return this.#settle(message.id, message.reply);
      case 'runner.send.started': {
        const pending = this.#calls.get(message.id);
        if (pending) pending.started = true;
        return;
      }
      case 'runner.service':
        return void this.#serve(message.id, message.method, message.args, message.call);
      case 'runner.log':
        return this.#log(message.level, message.message, message.fields);
    }
  }

  /** The plugin's console, bounded in rate and size; its fields nested, so they cannot pose as ours. */
  #log(level: RunnerLogLevel, message: string, fields: Record<string, unknown>): void {
    if (!this.#logLimit.allow()) return;
    const json = JSON.stringify(fields);
    const plugin = json.length > MAX_LOG_FIELDS_CHARS ? { dropped: `${json.length} characters of fields` } : fields;
    this.#options.logger[level]({ channel: this.#options.label, plugin }, message.slice(0, MAX_LOG_MESSAGE_CHARS));
  }

  #settle(id: number, reply: SandboxReply<unknown>): void {
    const pending = this.#calls.get(id);
    if (!pending) return;
    this.#calls.delete(id);
    clearTimeout(pending.timer);
    if (reply.ok) return pending.resolve(reply.value);
    const error = deserializeError(reply.error);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && HOST_RESERVED_CODES.has(code)) {
      return pending.reject(new SandboxError('BOT_ERR_PLUGIN_THREW', `${this.#options.label}: the runner answered with a code only the host gives (${code})`, { cause: error }));
    }
    pending.reject(error);
  }

  /**
   * A host service by name: only the services this channel was given, never anything inherited.
   * It acts for the source of the call `callId` names, looked up now, before any wait: only a
   * call in flight on this runner counts, so an id that is unknown, finished or forged is the
   * same as none (a timer that outlived its call, code run at import).
   */
  async #serve(id: number, method: string, args: unknown[], callId: number | undefined): Promise<void> {
    const services = this.#options.hostServices as unknown as Record<string, unknown>;
    const callSourceId = callId === undefined ? undefined : this.#calls.get(callId)?.sourceId;
    let reply: SandboxReply<unknown>;
    // Bounded: a plugin must not make the host hold thousands of requests (or queries) at once.
    if (this.#serviceCalls >= MAX_SERVICE_CALLS) {
      if (this.#serviceQueue.length >= MAX_QUEUED_SERVICE_CALLS) {
        const error = new SandboxError('BOT_ERR_PLUGIN_QUEUE_FULL', `More than ${MAX_SERVICE_CALLS} host service calls in progress and ${MAX_QUEUED_SERVICE_CALLS} waiting`);
        return this.#send({ type: 'runner.service.reply', id, reply: { ok: false, error: withoutStack(error) } });
      }
      // The call that ends hands its slot over (the count stays), so none is taken twice.
      await new Promise<void>((resolve) => this.#serviceQueue.push(resolve));
    } else {
      this.#serviceCalls++;
    }
    try {
      // A runner that has ended (or is being killed) is owed nothing: what it queued before its
      // end is not started, so a plugin cannot queue a thousand requests, crash, and have the
      // host keep making them for it.
      if (this.#killReason !== undefined || this.#exitReason !== undefined) return;
      const service = Object.hasOwn(services, method) ? services[method] : undefined;
      if (typeof service !== 'function') throw new Error(`No host service "${method}"`);
      reply = { ok: true, value: await (service as (...values: unknown[]) => Promise<unknown>).apply(services, this.#boundedArgs(method, args, callSourceId)) };
    } catch (error) {
      reply = { ok: false, error: withoutStack(error) };
    } finally {
      const next = this.#serviceQueue.shift();
      if (next) next();
      else this.#serviceCalls--;
    }
    this.#send({ type: 'runner.service.reply', id, reply });
  }

  /**
   * The arguments as the thread bridge would pass them: strings where strings are due, the source
   * the host knows the request acts for in place of the one the plugin named (callSourceArgs),
   * and an egress request's time limit no longer than the runner waits for it (the host's own is
   * longer).
   */
  #boundedArgs(method: string, claimedArgs: unknown[], callSourceId: string | undefined): unknown[] {
    const args = callSourceArgs(method, claimedArgs, callSourceId);
    if (method !== 'fetch' || typeof args[0] !== 'object' || args[0] === null) return args;
    const limits = this.#options.limits;
    const waitMs = limits.hostCallTimeoutMs ?? Math.ceil(limits.callTimeoutMs / 2);
    const asked = (args[0] as { timeoutMs?: unknown }).timeoutMs;
    const timeoutMs = typeof asked === 'number' && asked > 0 ? Math.min(asked, waitMs) : waitMs;
    return [{ ...(args[0] as object), timeoutMs }];
  }

  /**
   * Timers run before the I/O that is waiting: after a stall of the host's event loop, the
   * answer (or the send's `started`) may sit unread on the wire. Read it first, then decide.
   */
  #timedOut(id: number, method: string, timeoutMs: number): void {
    setImmediate(() => this.#expire(id, method, timeoutMs));
  }

  #expire(id: number, method: string, timeoutMs: number): void {
    const pending = this.#calls.get(id);
    if (!pending) return;
    this.#calls.delete(id);
    const label = this.#options.label;
    pending.reject(
      pending.isSend && !pending.started
        ? sendNotStarted(label)
        : new SandboxError('BOT_ERR_PLUGIN_CALL_TIMEOUT', `${label}: ${method} got no answer from the runner within ${timeoutMs} ms; the runner was stopped`),
    );
    // The runner answers its own timeouts sooner: one silent past this limit is stuck (a plugin
    // that never yields its thread), and only ending it frees the channel.
    this.kill(`${method} got no answer within ${timeoutMs} ms`);
  }

  #ended(reason: string): void {
    if (this.#exitReason !== undefined) return;
    this.#exitReason = reason;
    this.#pace.release();
    this.#logLimit.close();
    this.#ready.reject(new SandboxError('BOT_ERR_PLUGIN_RUNNER_DOWN', `${this.#options.label}: the runner ended before it was ready (${reason})`));
    for (const [id, pending] of this.#calls) {
      this.#calls.delete(id);
      clearTimeout(pending.timer);
      pending.reject(
        pending.isSend && !pending.started
          ? sendNotStarted(this.#options.label, `the runner ${reason}`)
          : new SandboxError('BOT_ERR_PLUGIN_WORKER_CRASHED', `${this.#options.label}: the runner ended during the call (${reason})`),
      );
    }
    this.#exited.resolve(reason);
  }

  #downError(): SandboxError {
    return new SandboxError('BOT_ERR_PLUGIN_RUNNER_DOWN', `${this.#options.label}: the runner is not running (${this.#exitReason ?? this.#killReason})`);
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string[]): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const last = stderrTail.findLast((line) => line.trim() !== '');
  return last ? `${how}: ${last.trim().slice(0, 300)}` : how;
}


type RunnerLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** An error for the runner: its stack stays in the host. */
function withoutStack(error: unknown): SerializedError {
  const { stack: _stack, ...plain } = serializeError(error);
  return plain;
}
