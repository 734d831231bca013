/**
 * The uid/gid a runner runs as. A host running as root hands its runners an unprivileged
 * identity (nobody/nogroup, 65534) so plugin code never holds root, inside a sandbox or not; a
 * host running as an ordinary user is already unprivileged and keeps its own.
 */
export interface RunnerIdentity {
  uid: number;
  gid: number;
  /** Options for child_process.spawn: set only when the host must drop privileges. */
  spawn: { uid?: number; gid?: number };
}

const NOBODY = 65_534;

export function runnerIdentity(): RunnerIdentity {
  const uid = process.getuid?.() ?? NOBODY;
  const gid = process.getgid?.() ?? NOBODY;
  if (uid !== 0) return { uid, gid, spawn: {} };
  return { uid: NOBODY, gid: NOBODY, spawn: { uid: NOBODY, gid: NOBODY } };
}
