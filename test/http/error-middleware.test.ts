import assert from 'node:assert/strict';
import Koa from 'koa';
import { inject } from 'light-my-request';
import pino from 'pino';
import { test } from 'node:test';
import { AppError } from '../../host/errors/app-error.ts';
import { errorMiddleware } from '../../host/http/error-middleware.ts';
import { requestContext } from '../../host/http/request-context.ts';
import type { AppState } from '../../host/http/app-state.ts';

function appThrowing(error: unknown, logger = pino({ level: 'silent' })) {
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(requestContext(logger));
  app.use(errorMiddleware());
  app.use(() => {
    throw error;
  });
  return app.callback();
}

test('an unexpected error becomes a 500 that reveals nothing of it', async () => {
  const response = await inject(appThrowing(new Error('password=hunter2 at db.ts:42')), { url: '/' });
  assert.equal(response.statusCode, 500);
  const body = response.json();
  assert.equal(body.error.code, 'BOT_ERR_INTERNAL');
  assert.doesNotMatch(response.payload, /hunter2|db\.ts/);
});

test('an exposed AppError keeps its code, message and details', async () => {
  const response = await inject(appThrowing(new AppError('BOT_ERR_MEMORY_SLUG_UNKNOWN', 'No memory "x"', { slug: 'x' })), { url: '/' });
  assert.equal(response.statusCode, 422);
  assert.deepEqual(response.json(), { error: { code: 'BOT_ERR_MEMORY_SLUG_UNKNOWN', message: 'No memory "x"', details: { slug: 'x' } } });
});

test('a lost database connection becomes 503', async () => {
  const response = await inject(appThrowing(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), { url: '/' });
  assert.equal(response.statusCode, 503);
  assert.equal(response.json().error.code, 'BOT_ERR_DB_UNAVAILABLE');
});

test('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
  const handler = appThrowing(new Error('x'));
  const echoed = await inject(handler, { url: '/', headers: { 'x-request-id': 'abc-123' } });
  assert.equal(echoed.headers['x-request-id'], 'abc-123');
  const replaced = await inject(handler, { url: '/', headers: { 'x-request-id': 'bad id\twith spaces' } });
  assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
});

/** A logger at debug whose lines are kept, parsed. */
function recordingLogger(): { logger: pino.Logger; lines: Array<{ level: number; msg: string; code?: string; err?: { stack?: string } }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const WARN = 40;
const ERROR = 50;

test('a passing state (still starting, a channel disabled) is one warning line without a stack, a failure an error with its stack', async () => {
  const starting = recordingLogger();
  const response = await inject(appThrowing(new AppError('BOT_ERR_HEALTH_NOT_READY', 'Still starting: channels'), starting.logger), { url: '/health/ready' });
  assert.equal(response.statusCode, 503);
  assert.deepEqual(starting.lines.filter((line) => line.level >= ERROR), []);
  const reason = starting.lines.find((line) => line.msg === 'Still starting: channels');
  assert.equal(reason?.level, WARN);
  assert.equal(reason?.code, 'BOT_ERR_HEALTH_NOT_READY');
  assert.equal(reason?.err, undefined);

  const disabled = recordingLogger();
  await inject(appThrowing(new AppError('BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE', 'Channel unavailable; retry later'), disabled.logger), { method: 'POST', url: '/api/webhook/x' });
  assert.deepEqual(disabled.lines.filter((line) => line.level >= ERROR), []);

  const failing = recordingLogger();
  await inject(appThrowing(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), failing.logger), { url: '/' });
  const failure = failing.lines.find((line) => line.level === ERROR);
  assert.match(String(failure?.err?.stack), /ECONNREFUSED/);
});
