/**
 * What diagnostics say of Landlock, a further layer some hosts could add through `setpriv`
 * (util-linux 2.40 and later; Debian 12's 2.38 has none). Runners do not use it: the sandbox holds
 * without it, and the note only tells an operator whether this machine could.
 */
import { execFileSync } from 'node:child_process';

const SETPRIV_TIMEOUT_MS = 5_000;

/** `landlock: …`, from `setpriv --help` on this machine. */
export function landlockNote(): string {
  let help: string;
  try {
    help = execFileSync('setpriv', ['--help'], { encoding: 'utf8', timeout: SETPRIV_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return 'landlock: unavailable (no setpriv)';
  }
  return /landlock/i.test(help) ? 'landlock: not applied (setpriv offers it; runners do not use it)' : 'landlock: unavailable (setpriv without landlock)';
}
