/**
 * Counts the channel runners a host process starts: its child processes whose command line names
 * its package folder (a runner's command lists the files it may read). It reads /proc, so Linux
 * only, as the runners' sandbox is; a runner lives far longer than the poll interval.
 */
import { readdirSync, readFileSync } from 'node:fs';

const POLL_MS = 20;

export class RunnerStarts {
  /** Processes already looked at: each is read once. */
  readonly #seen = new Set<number>();
  readonly #timer: NodeJS.Timeout;
  #count = 0;

  constructor(
    private readonly hostPid: number,
    private readonly packageFolder: string,
  ) {
    this.#scan();
    this.#timer = setInterval(() => this.#scan(), POLL_MS);
    this.#timer.unref();
  }

  /** Runners started since this began counting. */
  get count(): number {
    this.#scan();
    return this.#count;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  #scan(): void {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || this.#seen.has(pid)) continue;
      const kind = this.#kindOf(pid);
      // A child of the host caught between fork and exec does not name the folder yet: look again.
      if (kind === 'child') continue;
      this.#seen.add(pid);
      if (kind === 'runner') this.#count += 1;
    }
  }

  #kindOf(pid: number): 'runner' | 'child' | 'other' {
    try {
      // `pid (command) state ppid …`: the command may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== this.hostPid) return 'other';
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(this.packageFolder) ? 'runner' : 'child';
    } catch {
      return 'other'; // gone meanwhile
    }
  }
}
