/**
 * `npm run build:admin`: builds the admin panel with Vite into a fresh folder, then swaps it in
 * for `host/admin/dist`, so a host serving the old build never sees a half-written or empty one
 * (Vite alone empties the folder first, and a page loaded meanwhile gets "not built").
 */
import { rename, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ADMIN = fileURLToPath(new URL('../host/admin/', import.meta.url));
const DIST = `${ADMIN}dist`;
const NEXT = `${ADMIN}dist.next-${process.pid}`;
const OLD = `${ADMIN}dist.old-${process.pid}`;

try {
  await build({ configFile: `${ADMIN}vite.config.ts`, logLevel: 'warn', build: { outDir: NEXT, emptyOutDir: true } });
  await rename(DIST, OLD).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(NEXT, DIST);
} finally {
  await rm(NEXT, { recursive: true, force: true });
  await rm(OLD, { recursive: true, force: true });
}
