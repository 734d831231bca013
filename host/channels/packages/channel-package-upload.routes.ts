import { defineRoute, type RawBodyOption, type RouteDefinition } from '../../http/route-definition.ts';
import { CHANNEL_PACKAGES_TAG as TAG, outcomeSchema, previewSchema, uploadQuery } from './channel-package.schema.ts';
import type { ChannelPackageService } from './channel-package-service.ts';
import { outcomeView, previewView } from './channel-package-views.ts';
import { DEFAULT_MAX_TARBALL_BYTES } from './fetch-channel-package.ts';

/** A tarball as `npm pack` writes it, sent as the request body. */
const TARBALL: RawBodyOption = {
  maxBytes: DEFAULT_MAX_TARBALL_BYTES,
  types: ['application/octet-stream', 'application/gzip'],
  description: 'The package tarball (`npm pack` output), its bytes as the body',
};

/**
 * Preview and install of an uploaded tarball (BOT_CHANNEL_INSTALL=any): checked as a registry
 * package is, trusted `pinned` when it matches the `integrity` given, `unverified` without one.
 */
export function channelPackageUploadRoutes({ packages }: { packages: ChannelPackageService }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/channel/packages/upload/preview',
      operationId: 'previewUploadedChannelPackage',
      summary: 'Check an uploaded tarball without installing it: its manifest, integrity and trust',
      tag: TAG,
      permission: 'channel:install',
      query: uploadQuery,
      rawBody: TARBALL,
      success: { status: 200, description: 'What would be installed', schema: previewSchema },
      errors: [403, 422],
      async handle({ query, body, principal }) {
        return previewView(await packages.preview({ tarball: body, ...query, actor: principal!.sub }));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/channel/packages/upload',
      operationId: 'installUploadedChannelPackage',
      summary: 'Install or upgrade a channel package from an uploaded tarball, on every instance, without running any of its scripts',
      tag: TAG,
      permission: 'channel:install',
      query: uploadQuery,
      rawBody: TARBALL,
      success: { status: 200, description: 'Installed; its channel as discovery found it here', schema: outcomeSchema },
      errors: [403, 422, 502],
      async handle({ query, body, principal }) {
        return outcomeView(await packages.install({ tarball: body, ...query, actor: principal!.sub }));
      },
    }),
  ];
}
