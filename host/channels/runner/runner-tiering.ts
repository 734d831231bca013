/**
 * V8's optimizing compilers sleep while a runner loads its plugin. Loading resolves a few hundred
 * module paths, which alone makes Node's own path functions hot enough to be compiled by Maglev;
 * the compiler's code pages (about 4 MB of the Node binary) then stay resident in a runner that
 * has served nothing, and most runners mostly idle. Once the plugin is loaded, Maglev's usual
 * threshold comes back, so calls that are hot get optimized code as they would anywhere.
 */

/**
 * Command-line flags: thresholds no code reaches while a plugin loads. TurboFan keeps its
 * threshold for good: its code pages stay resident once used (about 5 MB), and code called
 * 50,000 times, as a busy channel's is, still gets there; until then Maglev runs it.
 */
export const COMPILERS_ASLEEP_FLAGS = ['--invocation-count-for-maglev=50000', '--invocation-count-for-turbofan=50000'] as const;

/** Set once the plugin is loaded: Maglev's threshold back to V8's default. */
export const COMPILERS_AWAKE_FLAGS = '--invocation-count-for-maglev=400';
