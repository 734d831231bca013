/** Shared by the sandbox tests: fixture plugins, small limits, a request builder, a recording logger. */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ChannelSource, PlainInboundEvent, WebhookRequest } from '@bot-ai/api';
import { BuiltinChannelPool, type BuiltinChannelPoolOptions } from '../../../host/channels/builtin-pool/builtin-channel-pool.ts';
import type { SandboxLogger } from '../../../host/channels/calls/sandbox-logger.ts';
import type { LogLevel } from '../../../host/channels/plugin-side/protocol.ts';

export const SOURCE: ChannelSource = { id: 'source-1', ref: 'ref-1', settings: { greeting: 'hello' }, active: true };

/** Small heap on purpose; the call timeout leaves room for a CPU shared by parallel test files. */
export const TEST_LIMITS = { callTimeoutMs: 2_000, maxHeapMb: 32, idleTimeoutMs: 1_000, maxQueue: 8, maxThreads: 1 } as const;

/**
 * Misbehaviours must be cut off quickly. Not lower: a runaway allocation reaches the 32 MB limit
 * in about 70 ms on an idle CPU, and must still do so before the timeout on an overloaded one.
 */
export const MISBEHAVIOUR_TIMEOUT_MS = 1_000;

export function fixtureFile(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/sandbox-plugins/${name}/index.channel.js`, import.meta.url));
}

export interface RecordedLine {
  level: LogLevel;
  fields: Record<string, unknown>;
  message: string;
}

export function recordingLogger(): SandboxLogger & { lines: RecordedLine[] } {
  const lines: RecordedLine[] = [];
  const record = (level: LogLevel) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}

/** Starts the fixture's sandbox and closes it after the test. */
export async function startFixturePool(t: TestContext, name: string, overrides: Partial<BuiltinChannelPoolOptions> = {}): Promise<BuiltinChannelPool> {
  const sandbox = await BuiltinChannelPool.start({
    file: fixtureFile(name),
    name,
    ...TEST_LIMITS,
    hostServices: { getAttachmentPublicUrl: async (sourceId, ref) => `https://host.test/download/${sourceId}/${ref}` },
    logger: recordingLogger(),
    ...overrides,
  });
  t.after(() => sandbox.close());
  return sandbox;
}

/** A POST whose raw bytes are `raw` (default: the JSON of `body`). */
export function webhookRequest(body: unknown, options: { raw?: string; headers?: Record<string, string> } = {}): WebhookRequest {
  const rawBody = Buffer.from(options.raw ?? JSON.stringify(body));
  return { method: 'POST', headers: { 'content-type': 'application/json', ...options.headers }, query: {}, params: {}, body, rawBody };
}

/** The platform's GET handshake. */
export function handshakeRequest(query: Record<string, string> = {}): WebhookRequest {
  return { method: 'GET', headers: {}, query, params: {}, body: undefined, rawBody: Buffer.alloc(0) };
}

/** One echo-channel message. */
export function echoBody(text = 'hi', id = 'evt-1') {
  return { messages: [{ id, from: 'user-1', text, at: '2026-03-04T05:06:07.000Z' }] };
}

export const PLAIN_EVENT: PlainInboundEvent = {
  kind: 'message',
  channelName: 'echo',
  rawEvent: { id: 'evt-1' },
  channelAttributes: { greeting: 'hello' },
  occurredAt: '2026-03-04T05:06:07.000Z',
  eventId: 'evt-1',
  senderForeignId: 'user-1',
  message: { type: 'text', data: { text: 'hi' } },
};

/** Awaits the rejection and checks its `code` (never instanceof); returns the error to inspect. */
export async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<Error & { code: string; cause?: unknown }> {
  const error = await promise.then(
    () => assert.fail(`expected a rejection with ${code}`),
    (reason: unknown) => reason as Error & { code: string; cause?: unknown },
  );
  assert.equal(error.code, code, `code of: ${error.message}`);
  return error;
}
