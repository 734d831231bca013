/**
 * V8's optimizing compilers sleep while a runner loads its plugin, and wake for its calls.
 * Loading resolves a few hundred module paths, which alone makes Node's own path functions hot
 * enough to be compiled by Maglev and then TurboFan; the compilers' code pages (about 4 MB of the
 * Node binary) then stay resident in a runner that has served nothing, and most runners mostly
 * idle. Once the plugin is loaded, V8's usual thresholds come back, so calls that are hot get
 * optimized code as they would anywhere.
 */

/** Command-line flags: thresholds no code reaches while a plugin loads. */
export const COMPILERS_ASLEEP_FLAGS = ['--invocation-count-for-maglev=50000', '--invocation-count-for-turbofan=50000'] as const;

/** Set once the plugin is loaded: V8's own defaults. */
export const COMPILERS_AWAKE_FLAGS = '--invocation-count-for-maglev=400 --invocation-count-for-turbofan=3000';
