/**
 * V8's flags are the host's alone. `v8.setFlagsFromString` is outside Node's permission model,
 * and from plugin code it would turn on `--allow-natives-syntax` (V8's internal functions, a
 * short way to corrupt the runner's memory and attack the sandbox from native code) or undo the
 * runner's memory settings. The runner takes the function away before plugin code loads and
 * keeps it for itself; plugin code gets ERR_ACCESS_DENIED, as for what the permission model
 * refuses. `process.binding`, the other way to V8's own binding, is refused under the model.
 *
 * Loaded inside the runner: erasable TypeScript only.
 */
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';

/** Takes `setFlagsFromString` from every way plugin code can import `node:v8`; returns it. */
export function lockV8Flags(): (flags: string) => void {
  const setFlags = v8.setFlagsFromString.bind(v8);
  v8.setFlagsFromString = () => {
    throw Object.assign(new Error('V8 flags are set by the host only'), { code: 'ERR_ACCESS_DENIED' });
  };
  // `import { setFlagsFromString } from 'node:v8'` reads live bindings that follow the object
  // only once synced.
  syncBuiltinESMExports();
  return setFlags;
}
