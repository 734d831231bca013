/** Small plain packages for dependency tests, and a channel whose answer only they can compute. */
import { upgradableChannelSource } from '../channels/hot-enable/upgradable-plugin-root.ts';
import { libraryTarball } from './build-tarball.ts';
import type { TestRegistry } from './test-registry.ts';

/**
 * `tiny-pad` pads on the left with what `tiny-repeat@1` repeats; `tiny-repeat@2` (another API)
 * is what the padded channel itself uses, so `tiny-repeat@1` must nest under `tiny-pad`.
 */
export function publishLibraries(registry: TestRegistry): void {
  const repeat1 = { name: 'tiny-repeat', version: '1.0.0', main: 'index.js' };
  registry.publish(repeat1, libraryTarball(repeat1, { 'index.js': 'module.exports = (fill, count) => fill.repeat(count);\n' }));
  const repeat2 = { name: 'tiny-repeat', version: '2.0.0', main: 'index.js' };
  registry.publish(repeat2, libraryTarball(repeat2, { 'index.js': 'module.exports = (text) => text + text;\n' }));
  const pad = { name: 'tiny-pad', version: '1.0.0', main: 'index.js', dependencies: { 'tiny-repeat': '^1.0.0' } };
  registry.publish(pad, libraryTarball(pad, { 'index.js': "const repeat = require('tiny-repeat');\nmodule.exports = (text, width, fill) => repeat(fill, Math.max(0, width - text.length)) + text;\n" }));
}

/** What the padded channel's decode answers for `text`: `padLeft(text, 6, '*') | twice(text)`. */
export const PADDED_DEPENDENCIES = { 'tiny-pad': '^1.0.0', 'tiny-repeat': '2.0.0' };

/** The channel file of `name`, importing `tiny-pad` and `tiny-repeat@2` (see {@link PADDED_DEPENDENCIES}). */
export function paddedChannelSource(name: string): string {
  return upgradableChannelSource(name, '1.0.0')
    .replace('import { HttpChannelHandler', "import padLeft from 'tiny-pad';\nimport twice from 'tiny-repeat';\nimport { HttpChannelHandler")
    .replace("VERSION + ':' + text", "padLeft(text, 6, '*') + '|' + twice(text)");
}
