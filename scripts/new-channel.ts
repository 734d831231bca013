/**
 * `npm run new:channel -- <name> [--package] [--app-root <dir>]` scaffolds a channel from
 * `scripts/channel-template/` that builds and is discovered without further edits:
 * - default: a local channel in `<app root>/src/extensions/channels/<name>/`, compiled by the
 *   shared project `src/extensions/channels/tsconfig.json` to `dist/extensions/channels/<name>/`;
 * - `--package`: a package `<app root>/plugins/bot-channel-<name>/`, linked into
 *   `node_modules/bot-channel-<name>` (by `npm install` when `plugins/*` is a workspace of a
 *   locked app, else by a symlink as npm would make) and compiled to its `dist/`.
 * Either way the project is added to `<app root>/tsconfig.channels.json` (a solution file the
 * host's `npm run build` builds), built, and checked with discovery's own scan and manifest check.
 * Template files use `__name__` (channel name), `__Name__` (PascalCase) and `__NAME__`
 * (UPPER_SNAKE); files ending in `.template` lose that suffix. Nothing existing is overwritten.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { checkPluginManifest } from '../host/channels/discovery/check-plugin-manifest.ts';
import { readHostProvidedVersions } from '../host/channels/discovery/host-provided-versions.ts';
import { readPluginManifest } from '../host/channels/discovery/read-plugin-manifest.ts';
import { scanChannelFiles } from '../host/channels/discovery/scan-channel-files.ts';

const HOST_ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEMPLATE_DIR = fileURLToPath(new URL('channel-template/', import.meta.url));
const SOLUTION_FILE = 'tsconfig.channels.json';
const LOCAL_CHANNELS_DIR = 'src/extensions/channels';
/** Starts with a letter (it becomes a class name), single dashes between words. */
const NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_NAME_LENGTH = 50;
const USAGE = 'usage: npm run new:channel -- <name> [--package] [--app-root <dir>]';

/** A problem with the command line or the app root: exit code 2, nothing written. */
class UsageError extends Error {}

interface Scaffold {
  name: string;
  mode: 'local' | 'package';
  appRoot: string;
  /** The tsc project that compiles the channel, relative to the app root. */
  project: string;
  /** The compiled handler discovery will find, relative to the app root. */
  channelFile: string;
  /** Where the compiler writes it, relative to the app root. */
  builtFile: string;
  /** Files to create (absolute path → content), in order. */
  files: Map<string, string>;
}

try {
  const scaffold = planScaffold(parseCommandLine());
  await writeNewFiles(scaffold.files);
  updateSolution(scaffold.appRoot, scaffold.project);
  if (scaffold.mode === 'package') await linkPackage(scaffold);
  buildProject(path.join(scaffold.appRoot, scaffold.project));
  await checkDiscoverable(scaffold);
  printNextSteps(scaffold);
} catch (error) {
  const usage = error instanceof UsageError || isParseError(error);
  console.error(usage ? `${(error as Error).message}\n${USAGE}` : `new:channel failed: ${(error as Error).message}`);
  process.exit(usage ? 2 : 1);
}

function parseCommandLine(): { name: string; mode: Scaffold['mode']; appRoot: string } {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { package: { type: 'boolean', default: false }, 'app-root': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('Give exactly one channel name');
  // The default is where `npm start` runs (npm runs scripts in the package root); a folder given
  // on the command line is relative to where the user typed it (INIT_CWD).
  const given = values['app-root'];
  const appRoot = given === undefined ? path.resolve(process.env.BOT_APP_ROOT || '.') : path.resolve(process.env.INIT_CWD ?? '.', given);
  if (!existsSync(appRoot) || !statSync(appRoot).isDirectory()) throw new UsageError(`The app root ${appRoot} is not a folder`);
  return { name: positionals[0]!, mode: values.package ? 'package' : 'local', appRoot };
}

/** Checks everything and renders every file before anything is written. */
function planScaffold({ name, mode, appRoot }: { name: string; mode: Scaffold['mode']; appRoot: string }): Scaffold {
  checkName(name);
  checkNameIsFree(name, appRoot);
  const tokens = { __name__: name, __Name__: toPascalCase(name), __NAME__: name.toUpperCase().replaceAll('-', '_') };
  const files = new Map<string, string>();
  if (mode === 'local') {
    const channelDir = path.join(appRoot, LOCAL_CHANNELS_DIR, name);
    addAppManifestIfMissing(appRoot, files);
    addTemplates('channel', channelDir, tokens, files, (file) => file !== 'index.ts');
    const projectConfig = path.join(appRoot, LOCAL_CHANNELS_DIR, 'tsconfig.json');
    if (!existsSync(projectConfig)) addTemplates('local', path.dirname(projectConfig), tokens, files);
    const channelFile = `dist/extensions/channels/${name}/index.channel.js`;
    return { name, mode, appRoot, project: LOCAL_CHANNELS_DIR, channelFile, builtFile: channelFile, files };
  }
  const packageDir = path.join(appRoot, 'plugins', `bot-channel-${name}`);
  addTemplates('package', packageDir, tokens, files);
  addTemplates('channel', path.join(packageDir, 'src'), tokens, files);
  const project = `plugins/bot-channel-${name}`;
  const channelFile = `node_modules/bot-channel-${name}/dist/index.channel.js`;
  return { name, mode, appRoot, project, channelFile, builtFile: `${project}/dist/index.channel.js`, files };
}

function checkName(name: string): void {
  if (!NAME_PATTERN.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new UsageError(
      `Invalid channel name "${name}": use lowercase letters, digits and single dashes, starting with a letter (at most ${MAX_NAME_LENGTH} characters), e.g. "acme-chat"`,
    );
  }
}

/** Every place a channel of that name could already live, so discovery never sees two. */
function checkNameIsFree(name: string, appRoot: string): void {
  const places = [
    `${LOCAL_CHANNELS_DIR}/${name}`,
    `dist/extensions/channels/${name}`,
    `plugins/bot-channel-${name}`,
    `node_modules/bot-channel-${name}`,
    `node_modules/@bot-ai/api/dist/extensions/channels/${name}`,
  ];
  const taken = places.find((place) => existsSync(path.join(appRoot, place)));
  if (taken) throw new UsageError(`A channel named "${name}" already exists at ${path.join(appRoot, taken)}; nothing was written`);
}

/** Local channels compile to ES modules, which Node loads as such only under `"type": "module"`. */
function addAppManifestIfMissing(appRoot: string, files: Map<string, string>): void {
  const manifestFile = path.join(appRoot, 'package.json');
  if (!existsSync(manifestFile)) {
    files.set(manifestFile, `${JSON.stringify({ name: 'bot-host-app', private: true, type: 'module' }, null, 2)}\n`);
    return;
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { type?: unknown };
  if (manifest.type !== 'module') {
    throw new UsageError(`${manifestFile} must declare "type": "module" for local channels (they compile to ES modules); or scaffold a package with --package`);
  }
}

/** Renders every file of one template folder into `targetDir`, recursively. */
function addTemplates(folder: string, targetDir: string, tokens: Record<string, string>, files: Map<string, string>, include = (_file: string) => true): void {
  const sourceDir = path.join(TEMPLATE_DIR, folder);
  for (const entry of readdirSync(sourceDir, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(sourceDir, path.join(entry.parentPath, entry.name));
    if (!entry.isFile() || !include(relative)) continue;
    const target = path.join(targetDir, relative.replace(/\.template$/, ''));
    files.set(target, render(readFileSync(path.join(sourceDir, relative), 'utf8'), tokens));
  }
}

function render(text: string, tokens: Record<string, string>): string {
  return Object.entries(tokens).reduce((result, [token, value]) => result.replaceAll(token, value), text);
}

function toPascalCase(name: string): string {
  return name
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** `wx`: fails rather than overwrite a file that appeared since the checks. */
async function writeNewFiles(files: Map<string, string>): Promise<void> {
  for (const [file, content] of files) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content, { flag: 'wx' });
  }
}

/** Adds the project to the app's solution file (created when missing), which `tsc -b` builds. */
function updateSolution(appRoot: string, project: string): void {
  const file = path.join(appRoot, SOLUTION_FILE);
  const solution = existsSync(file) ? readSolution(file) : { files: [], references: [] };
  const references = solution.references ?? [];
  const reference = `./${project}`;
  if (references.some((entry) => path.resolve(appRoot, entry.path) === path.resolve(appRoot, reference))) return;
  const updated = { ...solution, references: [...references, { path: reference }] };
  writeFileSync(file, `${JSON.stringify(updated, null, 2)}\n`);
}

function readSolution(file: string): { files?: string[]; references?: { path: string }[] } {
  const { config, error } = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
  if (error) throw new Error(`${file} is not valid JSON: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
  return config as { files?: string[]; references?: { path: string }[] };
}

/**
 * Makes `node_modules/bot-channel-<name>` point at the package. In an app whose `plugins/*`
 * folders are npm workspaces with a lockfile, `npm install` does it (offline: every peer is
 * already installed) and records the workspace, so a later `npm ci` accepts the lockfile.
 */
async function linkPackage(scaffold: Scaffold): Promise<void> {
  const packageDir = path.join(scaffold.appRoot, scaffold.project);
  const linkPath = path.join(scaffold.appRoot, 'node_modules', `bot-channel-${scaffold.name}`);
  if (isLockedWorkspace(scaffold.appRoot, scaffold.project)) runNpmInstall(scaffold.appRoot);
  if (pointsAt(linkPath, packageDir)) return;
  await mkdir(path.dirname(linkPath), { recursive: true });
  await symlink(path.relative(path.dirname(linkPath), packageDir), linkPath, 'junction');
}

function isLockedWorkspace(appRoot: string, project: string): boolean {
  if (!existsSync(path.join(appRoot, 'package-lock.json')) || !existsSync(path.join(appRoot, 'package.json'))) return false;
  const manifest = JSON.parse(readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as { workspaces?: string[] | { packages?: string[] } };
  const patterns = Array.isArray(manifest.workspaces) ? manifest.workspaces : (manifest.workspaces?.packages ?? []);
  return patterns.some((pattern) => path.matchesGlob(project, pattern.replace(/^\.\//, '')));
}

function runNpmInstall(appRoot: string): void {
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const args = ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'];
  const result = spawnSync(npm[0]!, [...npm.slice(1), ...args], { cwd: appRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) console.error('npm install failed (see above); linking the package directly. Run `npm install` later to record it in package-lock.json.');
}

function pointsAt(linkPath: string, target: string): boolean {
  return existsSync(linkPath) && realpathSync(linkPath) === realpathSync(target);
}

/** Runs this host's TypeScript compiler on the project, so the scaffold ends with a built channel. */
function buildProject(projectDir: string): void {
  const result = spawnSync(process.execPath, [tscBin(), '-b', projectDir], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`tsc -b ${projectDir} failed (exit ${result.status}); the files are in place, fix them and run it again`);
}

/** Discovery's own scan and manifest check, without starting a worker. */
async function checkDiscoverable({ appRoot, channelFile }: Scaffold): Promise<void> {
  const found = (await scanChannelFiles(appRoot)).find((file) => file.file === channelFile);
  if (!found) throw new Error(`Discovery does not find ${channelFile} under ${appRoot}`);
  const manifest = await readPluginManifest(found.realFile, appRoot);
  checkPluginManifest(found, manifest, readHostProvidedVersions(HOST_ROOT));
}

function printNextSteps({ name, mode, appRoot, project, channelFile, builtFile, files }: Scaffold): void {
  const sources = mode === 'local' ? `${LOCAL_CHANNELS_DIR}/${name}/` : `${project}/src/ (and ${project}/README.md)`;
  console.log(`Created the ${mode} channel "${name}" in ${appRoot}:`);
  for (const file of files.keys()) console.log(`  ${path.relative(appRoot, file)}`);
  console.log(`and added ./${project} to ${SOLUTION_FILE}.
Built ${builtFile}; discovery finds ${channelFile} (manifest and peers check out).

Next steps:
  1. Make it speak your platform: edit ${sources}; each file's comments say what to change.
  2. Rebuild after each change: ${buildCommand(appRoot)}
  3. Let a running host discover it (or start one with npm start), then check it:
       curl -s -X POST $BASE/api/channel/rescan -H "authorization: Bearer $TOKEN"
       curl -s $BASE/api/channel/diagnostics -H "authorization: Bearer $TOKEN"
     "${name}" is listed with status "registered", or with the code and reason it was rejected.
  4. Create a source with "channel": "${name}" (POST /api/sources) and point the platform at its webhookUrl.${mode === 'package' ? `
  5. Run the author kit on it, with the recorded deliveries of ${project}/fixtures/:
       npm run channel:check -- ${project}` : ''}`);
}

/** The app's own build when it covers the solution file, else this host's compiler on the solution. */
function buildCommand(appRoot: string): string {
  const manifestFile = path.join(appRoot, 'package.json');
  const scripts = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as { scripts?: Record<string, string> }).scripts : undefined;
  if (scripts?.build?.includes(SOLUTION_FILE)) return `npm run build (in ${appRoot})`;
  return `node ${tscBin()} -b ${path.join(appRoot, SOLUTION_FILE)}`;
}

function tscBin(): string {
  return createRequire(import.meta.url).resolve('typescript/bin/tsc');
}

function isParseError(error: unknown): boolean {
  return typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}
