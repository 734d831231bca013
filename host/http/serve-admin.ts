import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

/** Where `npm run build:admin` writes the admin panel. */
export const ADMIN_DIST_DIR = fileURLToPath(new URL('../admin/dist/', import.meta.url));

/** Paths the host answers itself: never the panel, so their 404s stay JSON errors. */
const HOST_PREFIXES = ['/api', '/health', '/metrics', '/login', '/chat'];
/** Vite puts content-hashed files here: their name changes whenever their content does. */
const HASHED_PREFIX = '/assets/';
const LONG_CACHE = 'public, max-age=31536000, immutable';

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bot host: admin panel not built</title>
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><h1>The admin panel is not built</h1>
<p>Run <code>npm run build</code> (or <code>npm ci</code>, which runs it) in the host's folder, then reload this page.</p>
<p>The admin API works without it: see <code>/api/openapi.json</code>.</p></body></html>`;

/**
 * Serves the admin panel's static files, and its index.html for any other GET outside the host's
 * own paths (history fallback for client-side routes). Hashed assets are cached for a year;
 * index.html never, so a new build is picked up on the next load.
 */
export function serveAdmin({ dir = ADMIN_DIST_DIR }: { dir?: string } = {}): Middleware {
  const root = path.resolve(dir);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isHostPath(ctx.path)) return next();
    const file = await staticFile(root, ctx.path);
    if (file) {
      ctx.set('Cache-Control', ctx.path.startsWith(HASHED_PREFIX) ? LONG_CACHE : 'no-cache');
      ctx.type = path.extname(file);
      ctx.body = createReadStream(file);
      return;
    }
    if (ctx.path.startsWith(HASHED_PREFIX)) return next();
    await sendIndex(ctx, root);
  };
}

function isHostPath(pathname: string): boolean {
  return HOST_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** The regular file under root the path names, or undefined (also for `..` tricks and `/`). */
async function staticFile(root: string, pathname: string): Promise<string | undefined> {
  if (pathname === '/' || pathname.endsWith('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const file = path.resolve(root, `.${decoded}`);
  if (!file.startsWith(`${root}${path.sep}`) || path.basename(file) === 'index.html') return undefined;
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? file : undefined;
}

async function sendIndex(ctx: Parameters<Middleware>[0], root: string): Promise<void> {
  const index = path.join(root, 'index.html');
  const built = await stat(index).catch(() => undefined);
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-cache');
  if (!built?.isFile()) {
    ctx.status = 503;
    ctx.body = MISSING_BUILD_PAGE;
    return;
  }
  ctx.body = createReadStream(index);
}
