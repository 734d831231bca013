import assert from 'node:assert/strict';
import Koa from 'koa';
import { inject } from 'light-my-request';
import pino from 'pino';
import { test } from 'node:test';
import { AppError } from '../../host/errors/app-error.ts';
import { errorMiddleware } from '../../host/http/error-middleware.ts';
import { requestContext } from '../../host/http/request-context.ts';
import type { AppState } from '../../host/http/app-state.ts';

function appThrowing(error: unknown) {
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(requestContext(pino({ level: 'silent' })));
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
