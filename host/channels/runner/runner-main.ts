/**
 * The entry of a channel's runner process: the process the host starts (inside bubblewrap when
 * it can) for one channel. It holds that channel's worker pool — the plugin's code runs in its
 * threads — and talks to the host only over the IPC channel of its fork: calls in, answers out,
 * and the host services plugin code asks for relayed back to the host by name.
 *
 * Runs without tsx (Node's own type stripping): erasable TypeScript only. It imports nothing of
 * the host but the sandbox folder, which is all its sandbox lets it read.
 */
import type { HostServices } from '@bot-ai/api';
import { ChannelSandbox } from '../sandbox/channel-sandbox.ts';
import type { LogLevel, SandboxReply } from '../sandbox/protocol.ts';
import { serializeError } from '../sandbox/sandbox-error.ts';
import type { HostToRunnerMessage, RunnerCall, RunnerToHostMessage } from './runner-protocol.ts';

let sandbox: ChannelSandbox | undefined;
let nextServiceId = 1;
const serviceReplies = new Map<number, (reply: SandboxReply<unknown>) => void>();

function post(message: RunnerToHostMessage): void {
  // A host gone away is not ours to report: 'disconnect' below ends this process.
  if (process.connected) process.send!(message);
}

/** Host services as plugin code sees them: every method is relayed to the host by name. */
const relayedServices = new Proxy({} as HostServices, {
  get: (_target, method) => {
    if (typeof method !== 'string') return undefined;
    return (...args: unknown[]) => callHostService(method, args);
  },
});

async function callHostService(method: string, args: unknown[]): Promise<unknown> {
  const id = nextServiceId++;
  const { promise, resolve } = Promise.withResolvers<SandboxReply<unknown>>();
  serviceReplies.set(id, resolve);
  post({ type: 'runner.service', id, method, args });
  // The worker side bounds the wait (hostCallTimeoutMs); a reply that comes after it is dropped.
  const reply = await promise.finally(() => serviceReplies.delete(id));
  if (reply.ok) return reply.value;
  throw Object.assign(new Error(reply.error.message), { name: reply.error.name, code: reply.error.code });
}

const logger = Object.fromEntries(
  (['debug', 'info', 'warn', 'error'] as const).map((level: LogLevel) => [
    level,
    (fields: Record<string, unknown>, message: string) => post({ type: 'runner.log', level, message, fields: plainFields(fields) }),
  ]),
) as Record<LogLevel, (fields: Record<string, unknown>, message: string) => void>;

/** Log fields as plain data: an error object becomes its serialized form. */
function plainFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value instanceof Error ? serializeError(value) : value]));
}

async function init(message: Extract<HostToRunnerMessage, { type: 'runner.init' }>): Promise<void> {
  try {
    sandbox = await ChannelSandbox.start({ ...message.pool, file: message.fileUrl, name: message.label, hostServices: relayedServices, logger });
    post({ type: 'runner.ready' });
  } catch (error) {
    post({ type: 'runner.init.failed', error: serializeError(error) });
  }
}

function run(id: number, call: RunnerCall): Promise<unknown> {
  if (!sandbox) return Promise.reject(new Error('The runner has not started its pool'));
  switch (call.method) {
    case 'describe':
      return sandbox.describe();
    case 'verifyWebhook':
      return sandbox.verifyWebhook(call.request, call.source);
    case 'receiveWebhook':
      return sandbox.receiveWebhook(call.request, call.source);
    case 'receiveFrame':
      return sandbox.receiveFrame(call.frame, call.source);
    case 'sendTask':
      return sandbox.sendTask(call.event, call.source, call.envelope, call.options, () => post({ type: 'runner.send.started', id }));
    case 'subscriberData':
      return sandbox.subscriberData(call.event, call.source);
    default:
      return Promise.reject(new Error(`Unknown runner call ${(call as { method?: unknown }).method}`));
  }
}

async function answer(id: number, call: RunnerCall): Promise<void> {
  let reply: SandboxReply<unknown>;
  try {
    reply = { ok: true, value: await run(id, call) };
  } catch (error) {
    reply = { ok: false, error: serializeError(error) };
  }
  post({ type: 'runner.reply', id, reply });
}

process.on('message', (message: HostToRunnerMessage) => {
  switch (message.type) {
    case 'runner.init':
      void init(message);
      break;
    case 'runner.call':
      void answer(message.id, message.call);
      break;
    case 'runner.service.reply':
      serviceReplies.get(message.id)?.(message.reply);
      break;
    case 'runner.close':
      // Exit only once the answers of the calls drained are sent: process.exit drops queued messages.
      void (sandbox?.close() ?? Promise.resolve()).finally(() => process.send!({ type: 'runner.closed' } satisfies RunnerToHostMessage, () => process.exit(0)));
      break;
  }
});
// The host is this process's only reason to live: without it, stop at once.
process.on('disconnect', () => process.exit(0));
