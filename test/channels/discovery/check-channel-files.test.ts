import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { readHostProvidedVersions } from '../../../host/channels/discovery/host-provided-versions.ts';
import { checkChannelFiles } from '../../../host/channels/discovery/check-channel-files.ts';
import { createPluginRoot, writeChannelPackage } from '../../support/temp-plugin-root.ts';

const HOST_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

test("discovery's checks run none of a plugin's code: a file that would leave a mark when imported passes them and leaves none", async (t) => {
  const root = await createPluginRoot('bot-check-root-');
  const markers = await mkdtemp(path.join(tmpdir(), 'bot-check-marker-'));
  t.after(() => Promise.all([rm(root, { recursive: true, force: true }), rm(markers, { recursive: true, force: true })]));
  const marker = path.join(markers, 'imported');
  await writeChannelPackage(root, 'marking', `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'imported');\nexport default class Marking {}\n`);
  const checked = await checkChannelFiles({ appRoot: root, providedVersions: readHostProvidedVersions(HOST_ROOT) });
  const marking = checked.find((file) => file.package?.name === 'bot-channel-marking');
  assert.equal(marking?.passed, true, JSON.stringify(marking));
  assert.equal(existsSync(marker), false, 'a check imported the plugin');
});
