import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';
import type { HostRoute } from './route-definition.ts';

/**
 * Mounts the routes on two routers, those under `prefix` on one and the rest on the other, and
 * matches each request against one of them. @koa/router tests a request against every route it
 * holds, one by one, and each test calls its debug logger, which allocates its arguments even
 * with logging off: against the host's sixty-odd routes, that was the largest allocation of a
 * webhook delivery (`npm run bench -- ingest`), the request the host serves most. Under the
 * webhook prefix, a delivery is tested against the few webhook routes alone.
 *
 * Matching ignores case, as the router does. Each router answers its own 405 and 501 (after the
 * middleware below it, as `allowedMethods` does), so nothing changes for any request but the
 * routes it is tested against. A route outside `prefix` that could match a path under it (a
 * parameter before the prefix ends) is refused when mounting.
 * @example app.use(routersByPathPrefix('/api/webhook/', routes, (router, selected) => mountRoutes(router, selected, options)));
 */
export function routersByPathPrefix(prefix: string, routes: HostRoute[], mount: (router: Router<AppState>, routes: HostRoute[]) => void): RoutersByPathPrefix {
  const lowerPrefix = prefix.toLowerCase();
  const under = (path: string) => path.length >= lowerPrefix.length && path.slice(0, lowerPrefix.length).toLowerCase() === lowerPrefix;
  const outsideRoutes = routes.filter((route) => !under(route.path));
  for (const route of outsideRoutes) {
    // Its static part ends at its first parameter: one that ends inside the prefix could match under it.
    const staticPart = route.path.split(/[:*(]/, 1)[0]!.toLowerCase();
    if (staticPart.length < route.path.length && lowerPrefix.startsWith(staticPart)) {
      throw new Error(`The route ${route.path} could match paths under ${prefix}, which are matched against the routes under it alone`);
    }
  }
  const inside = routerMiddleware(routes.filter((route) => under(route.path)), mount);
  const outside = routerMiddleware(outsideRoutes, mount);
  const middleware: Middleware<AppState> = (ctx, next) => (under(ctx.path) ? inside.serve(ctx, next) : outside.serve(ctx, next));
  return Object.assign(middleware, { routers: [inside.router, outside.router] });
}

/** The middleware, with its two routers: what they hold is what the app serves. */
export type RoutersByPathPrefix = Middleware<AppState> & { readonly routers: readonly Router<AppState>[] };

function routerMiddleware(routes: HostRoute[], mount: (router: Router<AppState>, routes: HostRoute[]) => void): { router: Router<AppState>; serve: Middleware<AppState> } {
  const router = new Router<AppState>();
  mount(router, routes);
  // Koa's `use` accepts these as they are; called directly, their context type asks for the
  // `params` and `router` they set themselves.
  const match = router.routes() as unknown as Middleware<AppState>;
  // Without `throw`, the router sets 405 (or 501) and the Allow header once the middleware below
  // has not answered; errorMiddleware then gives the response the error body.
  const allowed = router.allowedMethods() as unknown as Middleware<AppState>;
  return { router, serve: (ctx, next) => match(ctx, () => allowed(ctx, next)) };
}
