import { authRoutes } from './auth/auth.routes.ts';
import { channelRoutes } from './channels/channel.routes.ts';
import { channelPackageUploadRoutes } from './channels/packages/channel-package-upload.routes.ts';
import { channelPackageRoutes } from './channels/packages/channel-packages.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import type { HostRoute } from './http/route-definition.ts';
import { loginPageRoutes } from './auth/login-page.ts';
import { attachmentDownloadRoutes } from './attachments/attachment-download.routes.ts';
import { metricsRoutes } from './metrics/metrics-route.ts';
import { chatPageRoutes } from './web-chat/chat-page.routes.ts';
import { webhookRoutes } from './webhooks/webhook.routes.ts';
import { memoryDefinitionRoutes } from './memory/definitions/memory-definitions.routes.ts';
import { memoryRecordRoutes } from './memory/records/memory-records.routes.ts';
import { testMemoryRoutes } from './memory/records/test-memory.routes.ts';
import { buildOpenApi } from './openapi/build-openapi.ts';
import { openApiRoute } from './openapi/openapi.routes.ts';
import type { Services } from './services.ts';
import { connectSourceRoutes } from './sources/connect-source.routes.ts';
import { sourceRoutes } from './sources/sources.routes.ts';
import { HOST_VERSION } from './version.ts';
import { workflowRoutes } from './workflows/workflows.routes.ts';
import { runRoutes } from './workflows/runs.routes.ts';
import { workflowDraftRoutes } from './workflows/drafts/workflow-drafts.routes.ts';
import { inboundEventRoutes } from './dispatch/inbound-events.routes.ts';
import { subscriberRoutes } from './conversations/subscribers.routes.ts';

export interface RouteOptions {
  authSecret: string;
  /** BOT_PUBLIC_URL: the base of webhook URLs; default the request's origin. */
  publicUrl?: string | undefined;
  /** BOT_WEBHOOK_MAX_BODY_BYTES. */
  webhookMaxBodyBytes: number;
  /** BOT_METRICS_TOKEN: the Bearer token `/metrics` requires; unset, it is open. */
  metricsToken?: string | undefined;
}

/**
 * Every route the host serves, in one list: the router mounts it and the OpenAPI document
 * describes it. The raw ones (webhooks, pages, downloads, metrics) answer by themselves and are
 * public, each with a credential of its own. Only the chat socket is served elsewhere: it is an
 * HTTP upgrade, which the WebSocket gateway takes before any route.
 */
export function buildRoutes(services: Services, { authSecret, publicUrl, webhookMaxBodyBytes, metricsToken }: RouteOptions): HostRoute[] {
  const routes: HostRoute[] = [
    ...webhookRoutes({
      sources: services.sourceCache,
      channels: services.channels,
      inbox: services.inbox,
      workflows: services.workflows,
      maxBodyBytes: webhookMaxBodyBytes,
      ackTimer: services.metrics.webhookAck,
    }),
    ...attachmentDownloadRoutes({ sources: services.sources, attachments: services.attachments }),
    ...chatPageRoutes({ sources: services.sourceCache }),
    ...loginPageRoutes(),
    ...metricsRoutes({ metrics: services.metrics, token: metricsToken }),
    ...healthRoutes({ db: services.db, readiness: services.readiness }),
    ...authRoutes({ loginLinks: services.loginLinks, authSecret }),
    ...memoryDefinitionRoutes({ definitions: services.memoryDefinitions }),
    ...memoryRecordRoutes({ records: services.memoryRecords }),
    ...testMemoryRoutes({ records: services.memoryRecords }),
    ...channelRoutes({ channels: services.channels, channelStates: services.channelStates }),
    ...channelPackageRoutes({ packages: services.channelPackages }),
    ...channelPackageUploadRoutes({ packages: services.channelPackages }),
    ...sourceRoutes({ sources: services.sources, channels: services.channels, publicUrl }),
    ...connectSourceRoutes({ sources: services.sources, channels: services.channels, publicUrl }),
    ...workflowRoutes({ workflows: services.workflows }),
    ...runRoutes({ db: services.db, workflows: services.workflows, runner: services.runner }),
    ...workflowDraftRoutes({ db: services.db }),
    ...inboundEventRoutes({ db: services.db }),
    ...subscriberRoutes({ db: services.db }),
  ];
  let document: Record<string, unknown> | undefined;
  routes.push(openApiRoute(() => (document ??= buildOpenApi(routes, HOST_VERSION))));
  return routes;
}
