import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { attachmentNameProblem } from '../../host/attachments/attachment-name.ts';
import { AttachmentStore } from '../../host/attachments/attachment-store.ts';

const SOURCE = '3f1c2b9e-8a47-4d2a-9c1e-5b7d6e4f3a21';
let dir: string;
let store: AttachmentStore;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bot-attachment-store-'));
  store = new AttachmentStore(path.join(dir, 'attachments'));
});
after(() => rm(dir, { recursive: true, force: true }));

const read = async (name: string) => {
  const opened = await store.open(SOURCE, name);
  return opened && text(opened.stream);
};

describe('attachment names', () => {
  test('plain file names are accepted', () => {
    for (const name of ['invoice.pdf', 'a', 'Rechnung März 2026.pdf', 'v1.2.3.tar.gz', '日本語.txt', 'x'.repeat(255), 'é'.repeat(127)]) {
      assert.equal(attachmentNameProblem(name), undefined, name);
    }
  });

  test('anything that could leave the folder, hide or confuse is refused', () => {
    const refused = ['', '.', '..', '../x', 'a/b', 'a\\b', '/etc/passwd', 'a/../b', 'x..y', '.hidden', '.upload-1234', 'nul\u0000byte', 'tab\tname',
      'line\nbreak', 'del\u007f', 'c1\u0085', 'x'.repeat(256), 'é'.repeat(128), '\ud800lone-surrogate'];
    for (const name of refused) assert.notEqual(attachmentNameProblem(name), undefined, JSON.stringify(name));
    for (const value of [undefined, null, 42, ['a']]) assert.notEqual(attachmentNameProblem(value), undefined);
  });
});

describe('the attachment store', () => {
  test('saves under <dir>/<sourceId>/<name> and opens what it saved', async () => {
    await store.save(SOURCE, 'note.txt', 'hello');
    assert.equal(await readFile(path.join(dir, 'attachments', SOURCE, 'note.txt'), 'utf8'), 'hello');
    const opened = await store.open(SOURCE, 'note.txt');
    assert.equal(opened?.size, 5);
    assert.equal(await text(opened!.stream), 'hello');
  });

  test('replacing a file is atomic and leaves no temporary file behind', async () => {
    await store.save(SOURCE, 'report.csv', 'v1');
    await store.save(SOURCE, 'report.csv', new Uint8Array([0x76, 0x32]));
    assert.equal(await read('report.csv'), 'v2');
    assert.deepEqual((await readdir(path.join(dir, 'attachments', SOURCE))).filter((file) => file.startsWith('.')), []);
  });

  test('refuses to save under a bad name or a source id that is not a UUID', async () => {
    for (const name of ['../escape.txt', '..', 'a/b', '.hidden', 'nul\u0000']) {
      await assert.rejects(store.save(SOURCE, name, 'x'), { code: 'BOT_ERR_ATTACHMENT_NAME_INVALID', status: 422 }, name);
    }
    await assert.rejects(store.save('../..', 'x.txt', 'x'), { code: 'BOT_ERR_SOURCE_NOT_FOUND' });
    assert.deepEqual(await readdir(dir), ['attachments']);
    assert.deepEqual((await readdir(path.join(dir, 'attachments'))).sort(), [SOURCE]);
  });

  test('opens nothing for a missing file, a bad name, a folder or a symbolic link', async () => {
    await writeFile(path.join(dir, 'outside.txt'), 'outside');
    await symlink(path.join(dir, 'outside.txt'), path.join(dir, 'attachments', SOURCE, 'link.txt'));
    await mkdir(path.join(dir, 'attachments', SOURCE, 'folder'));
    for (const name of ['missing.txt', '../outside.txt', '../../outside.txt', 'link.txt', 'folder']) {
      assert.equal(await store.open(SOURCE, name), undefined, name);
    }
    assert.equal(await store.open('../attachments', 'note.txt'), undefined);
  });
});
