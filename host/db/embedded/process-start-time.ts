import { readFile } from 'node:fs/promises';

/**
 * When `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`), or undefined
 * when no such process runs. A pid is recycled once its process is gone; the pair (pid, start
 * time) names one process for the machine's uptime.
 */
export async function processStartTime(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: count after its last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3); a zombie has exited and owns nothing any more.
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19];
}
