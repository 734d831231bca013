/**
 * Memory and CPU of a process with all its descendants, read from /proc: a sandboxed runner is
 * bubblewrap → node, and what counts is the whole tree. RSS includes memory outside
 * the JS heap (Buffers, native allocations), which a heap limit does not see.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessTreeUsage {
  /** Resident memory of the tree, in bytes. */
  rssBytes: number;
  /** User + system CPU time of the tree's live processes, in milliseconds. */
  cpuMs: number;
  pids: number[];
}

const PAGE_BYTES = 4096;
// USER_HZ: the unit of /proc/<pid>/stat's times, 100 on every Linux ABI in use.
const MS_PER_TICK = 10;

/** The tree's usage, or undefined once the root process is gone. */
export function processTreeUsage(rootPid: number): ProcessTreeUsage | undefined {
  const pids = descendantsAndSelf(rootPid);
  let rssBytes = 0;
  let cpuMs = 0;
  let seenRoot = false;
  for (const pid of pids) {
    const usage = readUsage(pid);
    if (!usage) continue;
    if (pid === rootPid) seenRoot = true;
    rssBytes += usage.rssBytes;
    cpuMs += usage.cpuMs;
  }
  return seenRoot ? { rssBytes, cpuMs, pids } : undefined;
}

/** `rootPid` and every process below it, parents before their children. */
export function descendantsAndSelf(rootPid: number): number[] {
  const found = [rootPid];
  for (let index = 0; index < found.length; index++) found.push(...childrenOf(found[index]!));
  return found;
}

/**
 * Children of every thread of the process: a child belongs to the thread that started it (a
 * worker thread's child_process.spawn included), and each thread lists only its own.
 */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const tid of threadsOf(pid)) {
    for (const child of readOrEmpty(`/proc/${pid}/task/${tid}/children`).split(' ')) if (child) children.push(Number(child));
  }
  return children;
}

function threadsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

function readUsage(pid: number): { rssBytes: number; cpuMs: number } | undefined {
  const statm = readOrEmpty(`/proc/${pid}/statm`);
  const stat = readOrEmpty(`/proc/${pid}/stat`);
  if (!statm || !stat) return undefined;
  // Fields after the command name (in parentheses, which may hold spaces): utime is the 14th
  // field of the line, stime the 15th, so the 12th and 13th after ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssBytes: Number(statm.split(' ')[1]) * PAGE_BYTES, cpuMs: ticks * MS_PER_TICK };
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
