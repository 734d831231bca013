/**
 * `npm run build:runner`: bundles the channel runner's code ahead of the first start (the host
 * would build it then otherwise), so a host running as another user than the one who installed
 * the tree finds it ready. See host/channels/runner/runner-bundle.ts.
 */
import { runnerBundle } from '../host/channels/runner/runner-bundle.ts';

const bundle = await runnerBundle((error) => {
  console.error('build:runner: esbuild failed; runners will run the TypeScript sources', error);
  process.exitCode = 1;
});
console.log(`build:runner: ${bundle.entry}`);
