import type { z } from 'zod';
import type { InstallOutcome } from './channel-package-service.ts';
import type { FetchedPackage } from './fetch-channel-package.ts';
import type { outcomeSchema, previewSchema } from './channel-package.schema.ts';

/** What a preview answers: the fetched package without its bytes. */
export function previewView(fetched: FetchedPackage): z.input<typeof previewSchema> {
  const { name, version, integrity, trust, publishedAt, manifest } = fetched;
  return { name, version, integrity, trust, publishedAt: publishedAt ?? null, manifest: { ...manifest, description: manifest.description ?? null } };
}

/** What an install answers: the installed package and what discovery made of its channel. */
export function outcomeView(outcome: InstallOutcome): z.input<typeof outcomeSchema> {
  const { channel } = outcome;
  const manifest = { ...outcome.package.manifest, description: outcome.package.manifest.description ?? null };
  return { package: { ...outcome.package, manifest }, channel: { status: channel.status, name: channel.name ?? null, code: channel.code ?? null, message: channel.message ?? null } };
}
