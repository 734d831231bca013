/**
 * Descriptors this process inherited without close-on-exec (a supervisor's pipe, a shell's
 * redirect, a test harness's log): every child it spawns gets them as well, bubblewrap passes
 * them on, and a plugin could then read or write them by number, which no path rule stops. Node
 * opens its own descriptors close-on-exec, so those left open across exec are all strays. A
 * runner's spawn puts `/dev/null` over each of them.
 */
import type { StdioOptions } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';

type StdioEntry = Extract<StdioOptions, unknown[]>[number];

const CLOSE_ON_EXEC = 0o2000000;

let strays: number[] | undefined;
let devNull: number | undefined;

/** Inherited descriptors above stderr that a spawned child would get; read once, at the first spawn. */
export function strayDescriptors(): number[] {
  strays ??= inheritable();
  return strays;
}

/**
 * `stdio` extended so that each stray descriptor beyond it is `/dev/null` in the child.
 * @example spawn(command, args, { stdio: maskStrayDescriptors(['ignore', 'pipe', 'pipe', 'pipe']) });
 */
export function maskStrayDescriptors(stdio: StdioEntry[], found = strayDescriptors()): StdioEntry[] {
  const beyond = found.filter((fd) => fd >= stdio.length);
  if (beyond.length === 0) return stdio;
  // Opened once, close-on-exec like all of Node's: the child gets its own copy at each stray's number.
  devNull ??= openSync('/dev/null', 'r+');
  const masked = [...stdio];
  for (const fd of beyond) {
    // `ignore` leaves a descriptor above stderr as the child inherited it: only strays need a value.
    while (masked.length < fd) masked.push('ignore');
    masked[fd] = devNull;
  }
  return masked;
}

function inheritable(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  return entries.map(Number).filter((fd) => fd > 2 && !closesOnExec(fd));
}

function closesOnExec(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return flags ? (Number.parseInt(flags[1]!, 8) & CLOSE_ON_EXEC) !== 0 : true;
  } catch {
    return true; // gone since the listing (the listing's own descriptor among them)
  }
}
