import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoadedChannel } from '../../host/channels/discovery/discovered-channel.ts';
import type { ChannelFile } from '../../host/channels/discovery/scan-channel-files.ts';
import { WarmSandboxes } from '../../host/channels/warm-sandboxes.ts';

const FILE: ChannelFile = { file: 'bot-channel-x/dist/index.channel.js', realFile: '/store/bot-channel-x/1.0.0-ab/node_modules/bot-channel-x/dist/index.channel.js', origin: 'package' };

/** Sandboxes as a loader hands them out, counted, each remembering whether it was closed. */
function loader() {
  const started: Array<LoadedChannel<string> & { closed: boolean }> = [];
  const start = async (file: ChannelFile) => {
    const loaded = { description: { kind: 'http' as const, name: 'x', settingsJsonSchema: {}, capabilities: {} }, sandbox: `${file.realFile}#${started.length}`, closed: false, close: async () => void (loaded.closed = true) };
    started.push(loaded);
    return loaded;
  };
  return { start, started };
}

test("the discovery after a trial takes the trial's sandbox: the file's code starts once", async () => {
  const { start, started } = loader();
  const warm = new WarmSandboxes<string>(start, async () => 'code-1');
  assert.equal((await warm.trial(FILE)).name, 'x');
  const loaded = await warm.load(FILE);
  assert.equal(started.length, 1);
  assert.equal(loaded, started[0]);
  assert.equal(started[0]!.closed, false);
  // Taken once: the next load starts its own.
  await warm.load(FILE);
  assert.equal(started.length, 2);
});

test('a trial sandbox whose code changed on disk since is closed, and a new one started', async () => {
  const { start, started } = loader();
  let code = 'code-1';
  const warm = new WarmSandboxes<string>(start, async () => code);
  await warm.trial(FILE);
  code = 'code-2';
  const loaded = await warm.load(FILE);
  assert.equal(started.length, 2);
  assert.equal(loaded, started[1]);
  assert.equal(started[0]!.closed, true);
});

test('closing closes the trial sandboxes nobody took', async () => {
  const { start, started } = loader();
  const warm = new WarmSandboxes<string>(start, async () => 'code-1');
  await warm.trial(FILE);
  await warm.close();
  assert.equal(started[0]!.closed, true);
});
