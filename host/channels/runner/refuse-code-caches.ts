/**
 * Plugin code compiles from source only. `node:vm` takes a V8 code cache (`cachedData`) in place
 * of a parse, and V8 does not treat a cache as untrusted: a plugin can ship bytecode made
 * elsewhere (with `--allow-natives-syntax`, or crafted by hand), patch the header to this
 * runner's flags, and run it, a short way to corrupt the runner's memory and attack the sandbox
 * from native code. The permission model leaves `vm` open, so the runner wraps every `vm` entry
 * that reads `cachedData` before plugin code loads; one given it gets ERR_ACCESS_DENIED. Making a
 * cache (`createCachedData`, `produceCachedData`) stays allowed: it only reads.
 *
 * Loaded inside the runner: erasable TypeScript only.
 */
import { syncBuiltinESMExports } from 'node:module';
import vm from 'node:vm';

/** Where each entry takes its options. */
const OPTIONS_AT = { createScript: 1, runInThisContext: 1, runInContext: 2, runInNewContext: 2, compileFunction: 2 } as const;

export function refuseCodeCaches(): void {
  const entries = vm as unknown as Record<keyof typeof OPTIONS_AT, (...args: unknown[]) => unknown>;
  for (const [name, index] of Object.entries(OPTIONS_AT) as Array<[keyof typeof OPTIONS_AT, number]>) {
    const original = entries[name];
    entries[name] = function checked(this: unknown, ...args: unknown[]) {
      if (args.length > index) args[index] = withoutCachedData(args[index]);
      return original.apply(this, args);
    };
  }
  const OriginalScript = vm.Script;
  (vm as { Script: typeof vm.Script }).Script = class Script extends OriginalScript {
    constructor(code: string, options?: vm.ScriptOptions | string) {
      super(code, withoutCachedData(options) as vm.ScriptOptions | string | undefined);
    }
  };
  syncBuiltinESMExports();
}

/**
 * The options as a plain copy, checked: what vm reads is the copy, so a getter or a proxy cannot
 * answer the check one way and vm another, and an inherited `cachedData` is not copied at all.
 */
function withoutCachedData(options: unknown): unknown {
  if (typeof options !== 'object' || options === null) return options;
  const copy: { cachedData?: unknown } = { ...options };
  if (copy.cachedData !== undefined) {
    throw Object.assign(new Error('A plugin may not run a V8 code cache: vm compiles from source only here'), { code: 'ERR_ACCESS_DENIED' });
  }
  return copy;
}
