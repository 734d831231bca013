import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { extractChannelPackage } from '../../../host/channels/packages/extract-channel-package.ts';
import type { TarballLimits } from '../../../host/channels/packages/read-channel-tarball.ts';
import { packageJsonEntry, packFolder, tarballOf, type RawEntry } from '../../support/build-tarball.ts';

const PARROT = new URL('../../fixtures/channel-packages/bot-channel-parrot/', import.meta.url).pathname;
const MANIFEST = packageJsonEntry({ name: 'bot-channel-hostile', version: '1.0.0' });

/** A fresh parent folder; the package goes to `<parent>/pkg`, which does not exist yet. */
async function workspace(t: TestContext): Promise<{ parent: string; destination: string }> {
  const parent = await mkdtemp(path.join(tmpdir(), 'extract-'));
  t.after(() => rm(parent, { recursive: true, force: true }));
  return { parent, destination: path.join(parent, 'pkg') };
}

function modeOf(file: string): Promise<number> {
  return stat(file).then((stats) => stats.mode & 0o7777);
}

test("unpacks a package's files under the destination, without the package/ prefix", async (t) => {
  const { destination } = await workspace(t);
  await extractChannelPackage(await packFolder(PARROT), destination);
  assert.deepEqual((await readdir(destination, { recursive: true })).sort(), ['dist', 'dist/index.channel.js', 'package.json']);
  assert.equal(await readFile(path.join(destination, 'package.json'), 'utf8'), await readFile(path.join(PARROT, 'package.json'), 'utf8'));
});

test('files get mode 0644 and folders 0755 whatever the tarball and the umask say', async (t) => {
  const { destination } = await workspace(t);
  const tarball = tarballOf([
    { path: 'package/', type: 'Directory', mode: 0o777 },
    { path: 'package/bin/', type: 'Directory', mode: 0o700 },
    MANIFEST,
    { path: 'package/bin/run.js', data: 'console.log(1)', mode: 0o4755 },
    { path: 'package/lib/secret.js', data: 'x', mode: 0o600 },
  ]);
  const umask = process.umask(0o077);
  try {
    await extractChannelPackage(tarball, destination);
  } finally {
    process.umask(umask);
  }
  assert.equal(await modeOf(destination), 0o755);
  assert.equal(await modeOf(path.join(destination, 'bin')), 0o755);
  assert.equal(await modeOf(path.join(destination, 'lib')), 0o755);
  assert.equal(await modeOf(path.join(destination, 'bin', 'run.js')), 0o644);
  assert.equal(await modeOf(path.join(destination, 'lib', 'secret.js')), 0o644);
  assert.equal(await modeOf(path.join(destination, 'package.json')), 0o644);
});

const SMALL: Partial<TarballLimits> = { maxEntryBytes: 1024, maxTotalBytes: 4096, maxEntries: 8 };

const hostile: [string, RawEntry[] | Buffer, string][] = [
  ['an entry that climbs out with ../', [MANIFEST, { path: 'package/../escaped.txt', data: 'out' }], 'ENTRY_REFUSED'],
  ['an entry deeper that climbs out', [MANIFEST, { path: 'package/dist/../../escaped.txt', data: 'out' }], 'ENTRY_REFUSED'],
  ['an absolute path', [MANIFEST, { path: '/tmp/escaped.txt', data: 'out' }], 'ENTRY_REFUSED'],
  ['an absolute path after the package/ prefix', [MANIFEST, { path: 'package//tmp/escaped.txt', data: 'out' }], 'ENTRY_REFUSED'],
  ['an entry outside package/', [MANIFEST, { path: 'other/index.js', data: 'x' }], 'ENTRY_REFUSED'],
  ['a symbolic link', [MANIFEST, { path: 'package/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }], 'ENTRY_REFUSED'],
  ['a hard link', [MANIFEST, { path: 'package/passwd', type: 'Link', linkpath: '/etc/passwd' }], 'ENTRY_REFUSED'],
  ['a character device', [MANIFEST, { path: 'package/null', type: 'CharacterDevice' }], 'ENTRY_REFUSED'],
  ['a block device', [MANIFEST, { path: 'package/disk', type: 'BlockDevice' }], 'ENTRY_REFUSED'],
  ['a FIFO', [MANIFEST, { path: 'package/pipe', type: 'FIFO' }], 'ENTRY_REFUSED'],
  ['an entry of a type tar does not unpack', [MANIFEST, { path: 'package/sparse', type: 'SparseFile' }], 'ENTRY_REFUSED'],
  ['the same path twice', [MANIFEST, { path: 'package/a.js', data: '1' }, { path: 'package/a.js', data: '2' }], 'ENTRY_REFUSED'],
  ['a path that is both a file and a folder', [MANIFEST, { path: 'package/a', data: '1' }, { path: 'package/a/b.js', data: '2' }], 'ENTRY_REFUSED'],
  ['a file larger than maxEntryBytes', [MANIFEST, { path: 'package/big.js', data: 'x'.repeat(2048) }], 'TOO_LARGE'],
  ['a header that claims a gigabyte', [MANIFEST, { path: 'package/big.js', size: 2 ** 30 }], 'TOO_LARGE'],
  ['files larger than maxTotalBytes together', [MANIFEST, ...[1, 2, 3, 4, 5].map((n) => ({ path: `package/${n}.js`, data: 'x'.repeat(1000) }))], 'TOO_LARGE'],
  ['more than maxEntries entries', [MANIFEST, ...Array.from({ length: 9 }, (_, n) => ({ path: `package/${n}.js`, data: '' }))], 'TOO_LARGE'],
  ['a gzip stream that expands far past the limits', gzipSync(Buffer.alloc(64 * 1024 * 1024)), 'TOO_LARGE'],
  ['bytes that are not tar at all', Buffer.from('this is not a tarball at all, gzip or plain, and is long enough '.repeat(20)), 'TARBALL_INVALID'],
  ['a second gzip layer inside the first', gzipSync(gzipSync(Buffer.alloc(1024 * 1024))), 'TARBALL_INVALID'],
];
for (const [what, content, code] of hostile) {
  test(`a tarball with ${what} is refused with BOT_ERR_CHANNEL_PACKAGE_${code} and leaves nothing behind`, async (t) => {
    const { parent, destination } = await workspace(t);
    const tarball = Buffer.isBuffer(content) ? content : tarballOf(content);
    await assert.rejects(extractChannelPackage(tarball, destination, SMALL), { code: `BOT_ERR_CHANNEL_PACKAGE_${code}` });
    assert.deepEqual(await readdir(parent), []);
    await assert.rejects(stat(path.join(tmpdir(), 'escaped.txt')), { code: 'ENOENT' });
  });
}

test('a plain (not gzip-compressed) tar archive unpacks too', async (t) => {
  const { destination } = await workspace(t);
  await extractChannelPackage(tarballOf([MANIFEST, { path: 'package/index.js', data: 'ok' }], { gzip: false }), destination);
  assert.equal(await readFile(path.join(destination, 'index.js'), 'utf8'), 'ok');
});

test('an existing destination is refused and left as it was', async (t) => {
  const { destination } = await workspace(t);
  await mkdir(destination);
  await writeFile(path.join(destination, 'kept.txt'), 'kept');
  await assert.rejects(extractChannelPackage(await packFolder(PARROT), destination), { code: 'BOT_ERR_CHANNEL_PACKAGE_DESTINATION_EXISTS' });
  assert.deepEqual(await readdir(destination), ['kept.txt']);
});

test("the destination's missing parent folders are created", async (t) => {
  const { parent } = await workspace(t);
  const destination = path.join(parent, 'bot-channel-parrot', '1.2.0');
  await extractChannelPackage(await packFolder(PARROT), destination);
  assert.ok((await readdir(destination)).includes('package.json'));
});
