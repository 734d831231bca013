/**
 * The uid/gid a runner runs as. A host running as root never lets plugin code hold root: each
 * runner gets a uid/gid of its own (the same number for both) from a range no account uses,
 * `BOT_ISOLATION_RUNNER_UID_BASE` and the 65,536 ids after it, allocated when the runner starts
 * and released once its process has exited. With an id of its own, a runner can signal no other
 * channel's runner, even in the `reduced` tier, which has no PID namespace. In the `sandbox` tier
 * bubblewrap is started as that id and maps it to 65534 inside.
 *
 * A host running as an ordinary user cannot change uid: its runners keep the host's. In the
 * `sandbox` tier the PID namespace still keeps a plugin from seeing or signalling any process
 * outside; in the `reduced` tier a plugin can then signal the host and the other runners, one
 * reason that tier is `reduced`.
 */
import { SandboxError } from '../plugin-side/sandbox-error.ts';
import { idsInUse, type IdInUse } from './ids-in-use.ts';

export interface RunnerIdentity {
  uid: number;
  gid: number;
  /** Options for child_process.spawn: set only when the host must drop privileges. */
  spawn: { uid?: number; gid?: number };
}

/** An identity held by one runner: `release()` once its process has exited (again is harmless). */
export interface AllocatedRunnerIdentity extends RunnerIdentity {
  release(): void;
}

/** Above the ranges of accounts (up to 60,000), of systemd's dynamic users and of nobody (65534). */
export const RUNNER_UID_BASE_DEFAULT = 200_000;
/** Ids in the range: far more runners than a host runs at once. */
export const RUNNER_ID_COUNT = 65_536;
/** The largest uid child_process.spawn accepts (an int32). */
export const MAX_SPAWN_ID = 2_147_483_647;
const NOBODY = 65_534;

export interface RunnerIdentityPoolOptions {
  /** First id of the range. */
  base: number;
  count: number;
  /** The host's uid and gid; only root (0) can hand out others. Default: this process's. */
  host?: { uid: number; gid: number };
  /** Ids the machine already uses, asked at each allocation. Default: `idsInUse()`. */
  inUse?: () => IdInUse;
}

/**
 * Hands each runner the lowest id of the range that no live runner of this host holds and the
 * machine does not use; a released id is handed out again.
 * @example
 * const identity = pool.allocate();
 * const child = spawn(command, args, { ...identity.spawn });
 * child.once('exit', () => identity.release());
 */
export class RunnerIdentityPool {
  readonly #options: Required<RunnerIdentityPoolOptions>;
  readonly #held = new Set<number>();

  constructor(options: RunnerIdentityPoolOptions) {
    if (!Number.isInteger(options.base) || options.base <= NOBODY) throw new RangeError(`base must be an integer above ${NOBODY}, got ${options.base}`);
    if (!Number.isInteger(options.count) || options.count < 1) throw new RangeError(`count must be a positive integer, got ${options.count}`);
    if (options.base + options.count - 1 > MAX_SPAWN_ID) throw new RangeError(`base + count must stay within ${MAX_SPAWN_ID + 1}, spawn's limit`);
    this.#options = { host: { uid: process.getuid?.() ?? NOBODY, gid: process.getgid?.() ?? NOBODY }, inUse: idsInUse, ...options };
  }

  /** Throws `BOT_ERR_PLUGIN_RUNNER_DOWN` when every id of the range is taken. */
  allocate(): AllocatedRunnerIdentity {
    const { host, base, count } = this.#options;
    if (host.uid !== 0) return { uid: host.uid, gid: host.gid, spawn: {}, release: () => {} };
    const inUse = this.#options.inUse();
    for (let id = base; id < base + count; id++) {
      if (!this.#held.has(id) && !inUse(id)) return this.#hold(id);
    }
    throw new SandboxError('BOT_ERR_PLUGIN_RUNNER_DOWN', `No uid is free for a channel runner in ${base}–${base + count - 1} (BOT_ISOLATION_RUNNER_UID_BASE)`);
  }

  #hold(id: number): AllocatedRunnerIdentity {
    this.#held.add(id);
    let released = false;
    const release = () => {
      // Once only: by a second call the id may be another runner's.
      if (!released) this.#held.delete(id);
      released = true;
    };
    return { uid: id, gid: id, spawn: { uid: id, gid: id }, release };
  }
}

let pool: RunnerIdentityPool | undefined;

/**
 * Sets the range of the host's pool (main, from the configuration), before the first runner
 * starts. Runners started before keep their ids, which the new pool skips as in use while their
 * processes live.
 */
export function configureRunnerIdentities(options: { base: number }): void {
  pool = new RunnerIdentityPool({ base: options.base, count: RUNNER_ID_COUNT });
}

/**
 * An identity for one runner start, from the host's pool: `release()` it once that process has
 * exited.
 * @example
 * const identity = allocateRunnerIdentity();
 * const runner = new RunnerProcess({ ...options, identity: identity.spawn });
 * void runner.exited().then(() => identity.release());
 */
export function allocateRunnerIdentity(): AllocatedRunnerIdentity {
  pool ??= new RunnerIdentityPool({ base: RUNNER_UID_BASE_DEFAULT, count: RUNNER_ID_COUNT });
  return pool.allocate();
}
