import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';
import type { HostRoute } from './route-definition.ts';

/** The middleware, with its two routers: what they hold is what the app serves. */
export type RoutersByPathPrefix = Middleware<AppState> & { readonly routers: readonly Router<AppState>[] };

/**
 * Mounts the routes on two routers, those under `prefix` on one and the rest on the other, and
 * matches a request under `prefix` against the first. @koa/router tests a request against every
 * route it holds, one by one, and each test calls its debug logger, which allocates its arguments
 * even with logging off: against the host's sixty-odd routes, that was the largest allocation of
 * a webhook delivery (`npm run bench -- ingest`), the request the host serves most. Under the
 * webhook prefix, a delivery is tested against the few webhook routes alone.
 *
 * A path under `prefix` that none of its routes matches goes to the other router, so every route
 * stays reachable whatever its pattern; a path both match is served by the route under `prefix`.
 * Matching ignores case, as the router does. Each router answers its own 405 and 501 (after the
 * middleware below it, as `allowedMethods` does).
 * @example app.use(routersByPathPrefix('/api/webhook/', routes, (router, selected) => mountRoutes(router, selected, options)));
 */
export function routersByPathPrefix(prefix: string, routes: HostRoute[], mount: (router: Router<AppState>, routes: HostRoute[]) => void): RoutersByPathPrefix {
  const underPrefix = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
  const inside = routerMiddleware(routes.filter((route) => underPrefix.test(route.path)), mount);
  const outside = routerMiddleware(routes.filter((route) => !underPrefix.test(route.path)), mount);
  const middleware: Middleware<AppState> = (ctx, next) => {
    if (!underPrefix.test(ctx.path)) return outside.serve(ctx, next);
    // The router lists in `ctx.matched` the routes whose path matched; with none, it calls on.
    return inside.match(ctx, () => ((ctx as { matched?: unknown[] }).matched?.length ? inside.allowed(ctx, next) : outside.serve(ctx, next)));
  };
  return Object.assign(middleware, { routers: [inside.router, outside.router] });
}

interface MountedRouter {
  router: Router<AppState>;
  /** Runs the route the request matches, else calls on. */
  match: Middleware<AppState>;
  /** After what follows, answers 405 or 501 for a path this router matched with another method. */
  allowed: Middleware<AppState>;
  /** `match`, then `allowed` around what follows. */
  serve: Middleware<AppState>;
}

function routerMiddleware(routes: HostRoute[], mount: (router: Router<AppState>, routes: HostRoute[]) => void): MountedRouter {
  const router = new Router<AppState>();
  mount(router, routes);
  // Koa's `use` accepts these as they are; called directly, their context type asks for the
  // `params` and `router` they set themselves.
  const match = router.routes() as unknown as Middleware<AppState>;
  // Without `throw`, the router sets 405 (or 501) and the Allow header once the middleware below
  // has not answered; errorMiddleware then gives the response the error body.
  const allowed = router.allowedMethods() as unknown as Middleware<AppState>;
  return { router, match, allowed, serve: (ctx, next) => match(ctx, () => allowed(ctx, next)) };
}
