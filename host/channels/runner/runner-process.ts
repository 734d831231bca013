/**
 * Host side of one runner process: starts it, matches calls with their answers over its wire
 * (fd 3, runner-frames.ts), serves the host services plugin code asks for, and reports its end
 * once. Every call has a time limit: a runner that does not answer is killed, not waited for; so
 * is one that breaks the protocol (a frame too long or not JSON, a message of no known shape).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { HostServices } from '@bot-ai/api';
import type { SandboxLogger } from '../sandbox/expose-host-bridge.ts';
import type { SandboxReply } from '../sandbox/protocol.ts';
import { deserializeError, SandboxError, serializeError } from '../sandbox/sandbox-error.ts';
import { forwardOutput } from './forward-output.ts';
import { encodeFrame, FrameReader } from './runner-frames.ts';
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
}

/** What is kept of a message too long for one log line. */
const MAX_LOG_MESSAGE_CHARS = 8_192;

export class RunnerProcess {
  readonly #child: ChildProcess;
  readonly #wire: Duplex;
  readonly #reader: FrameReader;
  readonly #options: RunnerProcessOptions;
  readonly #calls = new Map<number, PendingCall>();
  readonly #ready = Promise.withResolvers<void>();
  readonly #exited = Promise.withResolvers<string>();
  #nextId = 1;
  #killReason: string | undefined;
  #stderrTail: string[] = [];
  #exitReason: string | undefined;

  constructor(options: RunnerProcessOptions) {
    this.#options = options;
    this.#ready.promise.catch(() => {});
    this.#child = spawn(options.command.command, options.command.args, {
      // fd 3 is the wire: a socket pair of its own, not Node's IPC channel (see runner-frames.ts).
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: {}, // the runner sees no host environment
      // A process group of its own: a terminal's Ctrl-C (SIGINT to the whole group) reaches the
      // host, which closes its runners in order. A runner never outlives the host anyway: it
      // exits when its wire closes, and bubblewrap's --die-with-parent kills the sandbox.
      detached: true,
      ...options.identity,
    });
    this.#wire = this.#child.stdio[3] as Duplex;
    this.#reader = new FrameReader(options.maxFrameBytes);
    this.#wire.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#wire.on('error', () => this.kill('its wire failed'));
    forwardOutput(this.#child, options.logger, { channel: options.label }, (tail) => (this.#stderrTail = tail));
    this.#child.on('error', (error) => this.#ended(`could not start: ${error.message}`));
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
    this.#calls.set(id, { resolve, reject, started: false, isSend: call.type === 'channel.send', timer });
    this.#send({ type: 'runner.call', id, call });
    return promise;
  }

  /** Ends the process at once (SIGKILL); `reason` is what its exit is reported as. */
  kill(reason: string): void {
    if (this.#exitReason !== undefined) return;
    this.#killReason ??= reason;
    this.#child.kill('SIGKILL');
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
    if (this.#exitReason === undefined && this.#wire.writable) this.#wire.write(encodeFrame(message));
  }

  /** A runner that breaks the protocol is broken or hostile: it is ended, never trusted further. */
  #read(chunk: Buffer): void {
    let messages: unknown[];
    try {
      messages = this.#reader.push(chunk);
    } catch (error) {
      return this.kill(`broke the protocol: ${(error as Error).message}`);
    }
    for (const message of messages) {
      if (!isRunnerMessage(message)) return this.kill('broke the protocol: a message of no known shape');
      this.#handle(message);
    }
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
        return void this.#serve(message.id, message.method, message.args);
      case 'runner.log':
        return this.#options.logger[message.level]({ ...message.fields, channel: this.#options.label }, message.message.slice(0, MAX_LOG_MESSAGE_CHARS));
    }
  }

  #settle(id: number, reply: SandboxReply<unknown>): void {
    const pending = this.#calls.get(id);
    if (!pending) return;
    this.#calls.delete(id);
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(deserializeError(reply.error));
  }

  /** A host service by name: only the services this channel was given, never anything inherited. */
  async #serve(id: number, method: string, args: unknown[]): Promise<void> {
    const services = this.#options.hostServices as unknown as Record<string, unknown>;
    let reply: SandboxReply<unknown>;
    try {
      const service = Object.hasOwn(services, method) ? services[method] : undefined;
      if (typeof service !== 'function') throw new Error(`No host service "${method}"`);
      reply = { ok: true, value: await (service as (...values: unknown[]) => Promise<unknown>).apply(services, args) };
    } catch (error) {
      const { stack: _stack, ...plain } = serializeError(error);
      reply = { ok: false, error: plain };
    }
    this.#send({ type: 'runner.service.reply', id, reply });
  }

  #timedOut(id: number, method: string, timeoutMs: number): void {
    const pending = this.#calls.get(id);
    if (!pending) return;
    this.#calls.delete(id);
    const label = this.#options.label;
    pending.reject(
      pending.isSend && !pending.started
        ? new SandboxError('BOT_ERR_PLUGIN_SEND_NOT_STARTED', `${label}: the send never reached the plugin`)
        : new SandboxError('BOT_ERR_PLUGIN_CALL_TIMEOUT', `${label}: ${method} got no answer from the runner within ${timeoutMs} ms; the runner was stopped`),
    );
    // The runner answers its own timeouts sooner: one silent past this limit is stuck (a plugin
    // that never yields its thread), and only ending it frees the channel.
    this.kill(`${method} got no answer within ${timeoutMs} ms`);
  }

  #ended(reason: string): void {
    if (this.#exitReason !== undefined) return;
    this.#exitReason = reason;
    this.#ready.reject(new SandboxError('BOT_ERR_PLUGIN_RUNNER_DOWN', `${this.#options.label}: the runner ended before it was ready (${reason})`));
    for (const [id, pending] of this.#calls) {
      this.#calls.delete(id);
      clearTimeout(pending.timer);
      pending.reject(
        pending.isSend && !pending.started
          ? new SandboxError('BOT_ERR_PLUGIN_SEND_NOT_STARTED', `${this.#options.label}: the send never reached the plugin (the runner ${reason})`)
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

