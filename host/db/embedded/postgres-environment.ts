/**
 * The variables of the host's environment that the embedded PostgreSQL's programs (initdb, the
 * server and its watchdog shell) are given: where programs are, the locale initdb takes for the
 * cluster and where the system keeps locales (LOCPATH, Nix's LOCALE_ARCHIVE), the time zone, the
 * temporary folder, what the dynamic loader is told (LD_LIBRARY_PATH, LD_PRELOAD and nss_wrapper's
 * files, with which containers that run under an arbitrary uid give it a passwd entry; nix-ld's
 * NIX_LD*), and PostgreSQL's own out-of-memory adjustment. Nothing else: the host's environment
 * holds its secrets (BOT_AUTH_SECRET, BOT_AI_API_KEY_…), and a process's environment stays
 * readable in /proc for as long as it runs, by its own account, which is not the host's when the
 * host runs as root.
 */
const PASSED = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|LOCPATH|LOCALE_ARCHIVE|TZ|TMPDIR|LD_LIBRARY_PATH|LD_PRELOAD|NSS_WRAPPER_[A-Z]+|NIX_LD[A-Z0-9_]*|PG_OOM_ADJUST_[A-Z]+)$/;

/** The environment for the embedded PostgreSQL's processes; its messages in English, which the start waits for. */
export function postgresEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(env).filter(([name]) => PASSED.test(name))), LC_MESSAGES: 'C' };
}
