import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startHostProcess } from '../support/host-process.ts';
import { ChatClient } from './chat-client.ts';

// The newcomer's path: `npm start` on the embedded default prints a chat link that works at once.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bot-start-chat-'));
await chmod(dataDir, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must enter it
after(() => rm(dataDir, { recursive: true, force: true }));

/** The links are printed just after the "listening" line that startHostProcess waits for. */
async function printed<T>(find: () => T | null): Promise<T | null> {
  const deadline = Date.now() + 10_000;
  let found = find();
  while (!found && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    found = find();
  }
  return found;
}

test('npm start prints the chat page of a seeded web source wired to the greeting workflow', async () => {
  const host = await startHostProcess({ BOT_DATA_DIR: dataDir });
  let client: ChatClient | undefined;
  try {
    const link = await printed(() => /Chat with the greeting bot: (\S+\/chat\/([\w-]+))/.exec(host.output()));
    assert.ok(link, `no chat link in:\n${host.output()}`);
    const [, pageUrl, ref] = link;
    assert.ok(host.output().indexOf('Admin login') < host.output().indexOf('Chat with the greeting bot'), 'printed after the admin login link');
    // Repeated at the very end of start-up, after the plugins' log lines, where a newcomer looks.
    const ready = await printed(() => /Ready at \S+\n {2}Chat with the greeting bot: (\S+)/.exec(host.output()));
    assert.equal(ready?.[1], pageUrl, `no closing links in:\n${host.output()}`);
    assert.ok(host.output().lastIndexOf('Ready at') > host.output().indexOf('"msg":"channels discovered"'), 'after the plugins were discovered');
    const page = await fetch(pageUrl!);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<h1 id="title">Greeting bot<\/h1>/);
    client = await ChatClient.connect(`${host.url.replace('http', 'ws')}/api/ws/${ref}`);
    await client.next('session');
    client.say('my name is Ada');
    assert.deepEqual((await client.next('reply', 20_000)).message, { type: 'text', text: 'Hello Ada!' });
  } finally {
    await client?.close();
    await host.stop('SIGTERM');
  }
  assert.match(host.output(), /"msg":"bot host stopped"/);
  assert.doesNotMatch(host.output(), /error while shutting down/);
});
