/**
 * `npm test`: runs every `test/**\/*.test.ts` file with node:test under tsx. Tests need a
 * PostgreSQL server: TEST_DATABASE_URL (or DATABASE_URL) when set, else an embedded one started
 * here for the run and removed after it. Each test file makes its own database on that server.
 * Extra arguments are passed to `node --test` (e.g. a file path to run just that file).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { glob } from 'node:fs/promises';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../host/db/embedded-postgres.ts';

const files = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('-'));
const patterns = files.length > 0 ? files.map(toPattern) : ['test/**/*.test.ts'];
const testFiles = (await Promise.all(patterns.map((pattern) => Array.fromAsync(glob(pattern))))).flat().sort();

/** A folder argument means every test file under it. */
function toPattern(arg: string): string {
  return arg.endsWith('.ts') ? arg : `${arg.replace(/\/+$/, '')}/**/*.test.ts`;
}

let embedded: EmbeddedDatabase | undefined;
let embeddedDir: string | undefined;
const env = { ...process.env };
if (!env.TEST_DATABASE_URL && !env.DATABASE_URL) {
  embeddedDir = await mkdtemp(path.join(tmpdir(), 'bot-test-pg-'));
  console.log(`# no TEST_DATABASE_URL: starting an embedded PostgreSQL in ${embeddedDir}`);
  embedded = await startEmbeddedPostgres({ dir: embeddedDir, port: 0, persistent: false });
  // The superuser: each test file creates a database of its own.
  env.TEST_DATABASE_URL = embedded.adminUrl;
}
env.TEST_DATABASE_URL ??= env.DATABASE_URL;
// The host under test must not pick up the runner's DATABASE_URL by accident.
delete env.DATABASE_URL;

const concurrency = process.env.TEST_CONCURRENCY ?? '4';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=120000', ...flags, ...testFiles],
  { stdio: 'inherit', env },
);
const code: number = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
await embedded?.stop();
if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
process.exit(code);
