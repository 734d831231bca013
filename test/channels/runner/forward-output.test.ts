import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { forwardOutput, MAX_LINE_CHARS, MAX_LINES_PER_SECOND } from '../../../host/channels/runner/forward-output.ts';
import { recordingLogger } from '../builtin-pool/fixture-pool.ts';

/** Runs `code` in a child whose output is forwarded; resolves once it closed, with the log and the last stderr tail. */
async function forwarded(code: string): Promise<{ logger: ReturnType<typeof recordingLogger>; tail: string[] }> {
  const logger = recordingLogger();
  let tail: string[] = [];
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  forwardOutput(child, logger, { channel: 'test' }, (lines) => (tail = [...lines]));
  await once(child, 'close');
  return { logger, tail };
}

test("logs the runner's stdout lines as info and its stderr lines as warnings, with their stream", async () => {
  const { logger } = await forwarded(`process.stdout.write('out 1\\nout 2\\n'); process.stderr.write('err 1\\n');`);
  const lines = logger.lines.map(({ level, fields, message }) => [level, fields.stream, fields.channel, message]);
  assert.deepEqual(lines.filter(([, stream]) => stream === 'stdout'), [['info', 'stdout', 'test', 'out 1'], ['info', 'stdout', 'test', 'out 2']]);
  assert.deepEqual(lines.filter(([, stream]) => stream === 'stderr'), [['warn', 'stderr', 'test', 'err 1']]);
});

test('cuts a long line to its bounded length with a mark, and logs the next line whole', async () => {
  const { logger } = await forwarded(`process.stdout.write('x'.repeat(100_000) + '\\nnext\\n');`);
  assert.deepEqual(logger.lines.map((line) => line.message), [`${'x'.repeat(MAX_LINE_CHARS)}…`, 'next']);
});

test('logs at most its rate of lines a second, then says how many it dropped', async () => {
  const total = MAX_LINES_PER_SECOND * 3;
  const { logger } = await forwarded(`process.stdout.write(Array.from({ length: ${total} }, (_, i) => 'line ' + i).join('\\n') + '\\n');`);
  const output = logger.lines.filter((line) => line.fields.stream === 'stdout');
  const dropped = logger.lines.filter((line) => line.fields.dropped !== undefined);
  assert.equal(output.length, MAX_LINES_PER_SECOND);
  assert.deepEqual(dropped.map((line) => [line.level, line.fields.dropped]), [['warn', total - MAX_LINES_PER_SECOND]]);
  assert.match(dropped[0]!.message, new RegExp(`^${total - MAX_LINES_PER_SECOND} lines of the runner's output dropped`));
});

test("keeps the last 20 stderr lines to explain an exit, those the log dropped and an unfinished last one included", async () => {
  const { tail } = await forwarded(`for (let i = 0; i < ${MAX_LINES_PER_SECOND + 50}; i++) process.stderr.write('err ' + i + '\\n'); process.stderr.write('dying');`);
  const last = MAX_LINES_PER_SECOND + 49;
  assert.deepEqual(tail, [...Array.from({ length: 19 }, (_, index) => `err ${last - 18 + index}`), 'dying']);
});
