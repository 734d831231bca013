/**
 * Which uids/gids this machine already uses, so a runner is never given one: ids named in
 * /etc/passwd and /etc/group, the ranges /etc/subuid and /etc/subgid hand to users' containers
 * (on the host, such an id owns a container's files), and the ids a live process runs as (another
 * host's runner, or something a runner of ours left behind). Read afresh at each call: a runner
 * starts rarely, and a scan of /proc costs a few milliseconds.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Whether an id is in use, as of this call. */
export type IdInUse = (id: number) => boolean;

export function idsInUse(): IdInUse {
  const named = new Set([...idsNamedIn('/etc/passwd'), ...idsNamedIn('/etc/group'), ...idsOfProcesses()]);
  const ranges = [...rangesIn('/etc/subuid'), ...rangesIn('/etc/subgid')];
  return (id) => named.has(id) || ranges.some(([start, count]) => id >= start && id < start + count);
}

/** The third field of each `name:x:id:…` line. */
function idsNamedIn(file: string): number[] {
  return linesOf(file).map((line) => Number(line.split(':')[2]));
}

/** `owner:start:count` lines. */
function rangesIn(file: string): Array<[number, number]> {
  return linesOf(file).map((line) => {
    const [, start, count] = line.split(':');
    return [Number(start), Number(count)];
  });
}

/** Real, effective, saved and file-system uids and gids of every process. */
function idsOfProcesses(): number[] {
  const ids: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const status = readOrEmpty(`/proc/${pid}/status`);
    for (const match of status.matchAll(/^(?:Uid|Gid):\s+(.*)$/gm)) ids.push(...match[1]!.split(/\s+/).map(Number));
  }
  return ids;
}

function linesOf(file: string): string[] {
  return readOrEmpty(file)
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
