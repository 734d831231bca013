import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import Koa from 'koa';
import { inject } from 'light-my-request';
import pino from 'pino';
import type { AppState } from '../../host/http/app-state.ts';
import { requestContext } from '../../host/http/request-context.ts';

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  status?: number;
}

function appLoggingAt(level: string, status: number, handlerLogs: boolean) {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as LogLine);
      done();
    },
  });
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(requestContext(pino({ level }, destination)));
  app.use((ctx) => {
    if (handlerLogs) ctx.state.log.info('handled');
    ctx.status = status;
    ctx.body = { requestId: ctx.state.requestId };
  });
  return { handler: app.callback(), lines };
}

test('the request id is echoed, and every line logged for the request carries it', async () => {
  const { handler, lines } = appLoggingAt('debug', 200, true);
  const response = await inject(handler, { url: '/', headers: { 'x-request-id': 'abc-1' } });
  assert.equal(response.headers['x-request-id'], 'abc-1');
  assert.equal(response.json().requestId, 'abc-1');
  assert.deepEqual(lines.map(({ msg, requestId, status }) => ({ msg, requestId, status })), [
    { msg: 'handled', requestId: 'abc-1', status: undefined },
    { msg: 'request', requestId: 'abc-1', status: 200 },
  ]);
});

test('a finished request is a line at debug, at warn for a 5xx, and nothing below the level in use', async () => {
  const quiet = appLoggingAt('info', 200, false);
  await inject(quiet.handler, { url: '/' });
  assert.deepEqual(quiet.lines, []);
  const failing = appLoggingAt('info', 503, false);
  await inject(failing.handler, { url: '/', headers: { 'x-request-id': 'not a sane id!' } });
  assert.equal(failing.lines.length, 1);
  assert.equal(failing.lines[0]!.level, 40);
  assert.match(failing.lines[0]!.requestId!, /^[0-9a-f-]{36}$/);
});
