/**
 * The files the Node runtime itself needs inside an empty root: its binary and the shared
 * libraries it links (as `ldd` lists them, each at its own path and its real one). When `ldd`
 * cannot say, the system's library folders stand in: read-only, and no secret lives there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';

const FALLBACK_LIBRARY_DIRS = ['/lib', '/lib64', '/usr/lib', '/usr/lib64'];

let cached: string[] | undefined;

/** Paths to bind read-only for `nodeBinary` (default: the one running the host) to start. */
export function runtimeFiles(nodeBinary = process.execPath): string[] {
  if (cached) return cached;
  const files = new Set<string>([nodeBinary, realpathSync(nodeBinary)]);
  for (const library of linkedLibraries(nodeBinary)) {
    files.add(library);
    files.add(realpathSync(library));
  }
  cached = [...files].filter((file) => existsSync(file));
  return cached;
}

function linkedLibraries(binary: string): string[] {
  let output: string;
  try {
    output = execFileSync('ldd', [binary], { encoding: 'utf8', timeout: 5_000, env: { PATH: '/usr/bin:/bin' } });
  } catch {
    return FALLBACK_LIBRARY_DIRS;
  }
  // Lines read `libm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x…)` or `/lib64/ld-linux-x86-64.so.2 (0x…)`.
  return output.split('\n').flatMap((line) => {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)/.exec(line);
    return match ? [match[1]!] : [];
  });
}
