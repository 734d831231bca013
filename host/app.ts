import Koa from 'koa';
import { Authenticator } from './auth/authenticator.ts';
import type { AppState } from './http/app-state.ts';
import { errorMiddleware } from './http/error-middleware.ts';
import { mountRoutes } from './http/mount-routes.ts';
import { routersByPathPrefix } from './http/routers-by-path-prefix.ts';
import { requestContext } from './http/request-context.ts';
import { buildRoutes } from './routes.ts';
import type { Services } from './services.ts';
import { serveAdmin } from './http/serve-admin.ts';
import { recordHttpMetrics } from './metrics/metrics-route.ts';
import { WEBHOOK_PATH_PREFIX } from './webhooks/webhook.routes.ts';

export interface AppOptions {
  authSecret: string;
  maxBodyBytes: number;
  /** Trust X-Forwarded-* (client address, protocol, host); only behind a proxy that sets them. */
  trustProxy?: boolean;
  /** Largest webhook body (BOT_WEBHOOK_MAX_BODY_BYTES); default 1 MiB. */
  webhookMaxBodyBytes?: number;
  /** BOT_PUBLIC_URL, for webhook URLs in responses. */
  publicUrl?: string | undefined;
  /** BOT_METRICS_TOKEN: the Bearer token `/metrics` requires; unset, it is open. */
  metricsToken?: string | undefined;
}

/** Builds the Koa app from its dependencies; no listening, no environment reading. */
export function buildApp(services: Services, options: AppOptions): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = options.trustProxy ?? false;
  // Errors are answered by errorMiddleware and logged there; Koa's default handler would log twice.
  app.silent = true;
  const routes = buildRoutes(services, {
    authSecret: options.authSecret,
    publicUrl: options.publicUrl,
    webhookMaxBodyBytes: options.webhookMaxBodyBytes ?? 1024 * 1024,
    metricsToken: options.metricsToken,
  });
  const mountOptions = { authenticator: new Authenticator(options.authSecret, services.roles), maxBodyBytes: options.maxBodyBytes };
  app.use(requestContext(services.logger));
  // Outside errorMiddleware, so a request counts with the status it was answered with.
  app.use(recordHttpMetrics(services.metrics));
  app.use(errorMiddleware());
  app.use(routersByPathPrefix(WEBHOOK_PATH_PREFIX, routes, (router, selected) => mountRoutes(router, selected, mountOptions)));
  app.use(serveAdmin());
  return app;
}

