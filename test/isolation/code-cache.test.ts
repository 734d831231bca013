/**
 * A plugin runs no V8 code cache. `node:vm` takes a cache in place of a parse, and V8 does not
 * treat one as untrusted: a plugin could ship bytecode made elsewhere with V8's internal
 * functions on (`--allow-natives-syntax`), patch the header's flag hash to its runner's (it sits
 * outside the checksummed part), and run `%` calls no parse in the runner would allow — or
 * hand-crafted bytecode, a short way to corrupt the runner's memory. The runner refuses
 * `cachedData` at every vm entry; making a cache stays allowed.
 */
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { assertRefused, attack, HOSTILE_PACKAGE, startChannel } from './hostile-runner.ts';

/** Top-level only: a lazily compiled inner function would be parsed from source, and refused. */
const SOURCE = "'natives: ' + typeof %GetOptimizationStatus(Math.max)";

test('a plugin gets no V8 internal function from a code cache made with them on, by any vm entry', async (t) => {
  // Made on the attacker's machine with the runner's Node version; here, the same binary.
  const cache = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '-e', `process.stdout.write(new (require('node:vm').Script)(${JSON.stringify(SOURCE)}).createCachedData().toString('base64'))`],
    { encoding: 'utf8' },
  );
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  for (const via of ['Script', 'runInThisContext', 'getter'] as const) {
    assertRefused(await attack(hostile, { attack: 'code-cache', source: SOURCE, cache, via }), `running ${SOURCE} from a code cache (${via})`);
  }
});
