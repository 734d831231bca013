import { authRoutes } from './auth/auth.routes.ts';
import { channelRoutes } from './channels/channel.routes.ts';
import { channelPackageUploadRoutes } from './channels/packages/channel-package-upload.routes.ts';
import { channelPackageRoutes } from './channels/packages/channel-packages.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import type { RouteDefinition } from './http/route-definition.ts';
import { memoryDefinitionRoutes } from './memory/definitions/memory-definitions.routes.ts';
import { memoryRecordRoutes } from './memory/records/memory-records.routes.ts';
import { buildOpenApi } from './openapi/build-openapi.ts';
import { openApiRoute } from './openapi/openapi.routes.ts';
import type { Services } from './services.ts';
import { connectSourceRoutes } from './sources/connect-source.routes.ts';
import { sourceRoutes } from './sources/sources.routes.ts';
import { HOST_VERSION } from './version.ts';
import { workflowRoutes } from './workflows/workflows.routes.ts';
import { runRoutes } from './workflows/runs.routes.ts';
import { inboundEventRoutes } from './dispatch/inbound-events.routes.ts';
import { subscriberRoutes } from './conversations/subscribers.routes.ts';

/** Every route the host serves, in one list: the router mounts it and OpenAPI describes it. */
export interface RouteOptions {
  authSecret: string;
  /** BOT_PUBLIC_URL: the base of webhook URLs; default the request's origin. */
  publicUrl?: string | undefined;
}

export function buildRoutes(services: Services, { authSecret, publicUrl }: RouteOptions): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    ...healthRoutes({ db: services.db, readiness: services.readiness }),
    ...authRoutes({ loginLinks: services.loginLinks, authSecret }),
    ...memoryDefinitionRoutes({ definitions: services.memoryDefinitions }),
    ...memoryRecordRoutes({ records: services.memoryRecords }),
    ...channelRoutes({ channels: services.channels, channelStates: services.channelStates }),
    ...channelPackageRoutes({ packages: services.channelPackages }),
    ...channelPackageUploadRoutes({ packages: services.channelPackages }),
    ...sourceRoutes({ sources: services.sources, channels: services.channels, publicUrl }),
    ...connectSourceRoutes({ sources: services.sources, channels: services.channels, publicUrl }),
    ...workflowRoutes({ workflows: services.workflows }),
    ...runRoutes({ db: services.db, workflows: services.workflows, runner: services.runner }),
    ...inboundEventRoutes({ db: services.db }),
    ...subscriberRoutes({ db: services.db }),
  ];
  let document: Record<string, unknown> | undefined;
  routes.push(openApiRoute(() => (document ??= buildOpenApi(routes, HOST_VERSION))));
  return routes;
}
