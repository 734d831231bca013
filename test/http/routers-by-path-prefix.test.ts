import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Router from '@koa/router';
import Koa from 'koa';
import { inject } from 'light-my-request';
import type { AppState } from '../../host/http/app-state.ts';
import type { RawRouteDefinition } from '../../host/http/route-definition.ts';
import { routersByPathPrefix } from '../../host/http/routers-by-path-prefix.ts';

function route(method: 'GET' | 'POST', path: string): RawRouteDefinition {
  return {
    method, path, operationId: `${method}${path}`, tag: 'test', permission: null, summary: path, responses: {},
    answer: (ctx) => void (ctx.body = { served: `${method} ${path}` }),
  };
}

const ROUTES = [route('POST', '/hooks/:ref'), route('GET', '/hooks/:ref'), route('GET', '/admin/things'), route('GET', '/admin/things/:id')];

/** The app as the host builds it: the split routers, then what answers below them (as the admin panel does, GETs only). */
function appWithMatchCounts(): { app: Koa<AppState>; matched: Map<string, number> } {
  const matched = new Map<string, number>();
  const app = new Koa<AppState>();
  app.use(routersByPathPrefix('/hooks/', ROUTES, (router: Router<AppState>, selected) => {
    const label = selected.map((each) => each.path).join(' ');
    for (const each of selected) router.register(each.path, [each.method], (ctx) => (each as RawRouteDefinition).answer(ctx));
    const match = router.match.bind(router);
    router.match = (path, method) => {
      matched.set(label, (matched.get(label) ?? 0) + 1);
      return match(path, method);
    };
  }));
  app.use((ctx) => {
    if (ctx.method === 'GET') ctx.body = { below: true };
  });
  return { app, matched };
}

const call = (app: Koa<AppState>, method: string, url: string) => inject(app.callback(), { method: method as 'GET', url });

test('a request under the prefix is matched against the routes under it alone, and any other against the rest', async () => {
  const { app, matched } = appWithMatchCounts();
  assert.deepEqual((await call(app, 'POST', '/hooks/abc')).json(), { served: 'POST /hooks/:ref' });
  // Once, by the router under the prefix: the routes outside are never tested.
  assert.deepEqual([...matched], [['/hooks/:ref /hooks/:ref', 1]]);
  matched.clear();
  assert.deepEqual((await call(app, 'GET', '/admin/things/7')).json(), { served: 'GET /admin/things/:id' });
  assert.deepEqual([...matched], [['/admin/things /admin/things/:id', 1]]);
});

test('the prefix ignores case, as the router does', async () => {
  const { app } = appWithMatchCounts();
  assert.deepEqual((await call(app, 'POST', '/HOOKS/abc')).json(), { served: 'POST /hooks/:ref' });
});

test('each side answers its own 405 and 501 and passes what it does not match on', async () => {
  const { app } = appWithMatchCounts();
  const wrongMethod = await call(app, 'PUT', '/hooks/abc');
  assert.equal(wrongMethod.statusCode, 405);
  assert.equal(wrongMethod.headers.allow, 'POST, HEAD, GET');
  assert.equal((await call(app, 'PROPFIND', '/hooks/abc')).statusCode, 501);
  assert.equal((await call(app, 'PUT', '/admin/things')).headers.allow, 'HEAD, GET');
  assert.deepEqual((await call(app, 'GET', '/hooks/abc/def/ghi')).json(), { below: true });
  assert.deepEqual((await call(app, 'GET', '/elsewhere')).json(), { below: true });
});

test('a path under the prefix that no route under it matches goes to the other routes', async () => {
  const withWide = [...ROUTES, route('GET', '/:anything/list/all')];
  const app = new Koa<AppState>();
  app.use(routersByPathPrefix('/hooks/', withWide, (router, selected) => {
    for (const each of selected) router.register(each.path, [each.method], (ctx) => (each as RawRouteDefinition).answer(ctx));
  }));
  assert.deepEqual((await call(app, 'GET', '/hooks/list/all')).json(), { served: 'GET /:anything/list/all' });
  assert.deepEqual((await call(app, 'GET', '/hooks/abc')).json(), { served: 'GET /hooks/:ref' });
});

test('the prefix alone, with or without its slash, is served as before: by what is below', async () => {
  const { app } = appWithMatchCounts();
  for (const path of ['/hooks', '/hooks/']) {
    assert.deepEqual((await call(app, 'GET', path)).json(), { below: true }, path);
    assert.equal((await call(app, 'POST', path)).statusCode, 404, path);
  }
});
