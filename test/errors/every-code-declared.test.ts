import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../../host/errors/error-codes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** A whole code; a prefix such as `BOT_ERR_EGRESS_` (ending in `_`) names a family, not a code. */
const CODE = /\bBOT_ERR_[A-Z0-9_]*[A-Z0-9]\b(?!_)/g;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.parentPath.includes('node_modules') && !entry.parentPath.includes(`${path.sep}dist`))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

async function codeSourceDirs(): Promise<string[]> {
  const plugins = await readdir(path.join(ROOT, 'plugins'));
  return ['host', 'sdk/api/src', ...plugins.map((plugin) => `plugins/${plugin}/src`)].map((dir) => path.join(ROOT, dir));
}

test('every BOT_ERR_ code written in the host, the SDK or a bundled plugin is in the error table', async () => {
  const undeclared = new Map<string, string>();
  for (const dir of await codeSourceDirs()) {
    for (const file of await sourceFiles(dir)) {
      for (const [code] of (await readFile(file, 'utf8')).matchAll(CODE)) {
        if (!Object.hasOwn(ERROR_CODES, code)) undeclared.set(code, path.relative(ROOT, file));
      }
    }
  }
  assert.deepEqual(Object.fromEntries(undeclared), {});
});
