/**
 * The variables of the host's environment that the embedded PostgreSQL's programs (initdb, the
 * server and its watchdog shell) are given: where programs are, the locale initdb takes for the
 * cluster, the time zone and the temporary folder. Nothing else: the host's environment holds
 * its secrets (BOT_AUTH_SECRET, BOT_AI_API_KEY_…), and a process's environment stays readable in
 * /proc for as long as it runs, by its own account, which is not the host's when the host runs as
 * root.
 */
const PASSED = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR)$/;

/** The environment for the embedded PostgreSQL's processes; its messages in English, which the start waits for. */
export function postgresEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(env).filter(([name]) => PASSED.test(name))), LC_MESSAGES: 'C' };
}
