import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { checkManifestSchema, deliveryFixtureSchema, type CheckManifest, type DeliveryFixture } from './check-manifest.schema.ts';

/** A package's fixtures: the manifest and every recorded delivery, by file name. */
export interface ChannelFixtures {
  manifest: CheckManifest;
  deliveries: Map<string, DeliveryFixture>;
}

/**
 * Reads `<packageDir>/fixtures/channel-check.json` and `fixtures/deliveries/*.json`, validated;
 * a file that is not in the format throws naming the file and the problem.
 * @example const fixtures = await loadChannelFixtures('plugins/bot-channel-telegram');
 */
export async function loadChannelFixtures(packageDir: string): Promise<ChannelFixtures> {
  const dir = path.join(packageDir, 'fixtures');
  const manifest = await readValidated(path.join(dir, 'channel-check.json'), checkManifestSchema);
  const names = (await readdir(path.join(dir, 'deliveries'))).filter((name) => name.endsWith('.json')).sort();
  const deliveries = new Map<string, DeliveryFixture>();
  for (const name of names) deliveries.set(name, await readValidated(path.join(dir, 'deliveries', name), deliveryFixtureSchema));
  if (!deliveries.has(manifest.replyTo)) throw new Error(`fixtures/channel-check.json: replyTo names "${manifest.replyTo}", which is not in fixtures/deliveries/`);
  return { manifest, deliveries };
}

async function readValidated<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
