import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChannel, readDelivery, storedEvent } from './messenger-test-kit.ts';

/** The urls a recorded delivery lists for its first event's attachments. */
function expectedUrls(name: string): string[] {
  const [event] = readDelivery(name).expect.events!;
  return (event!.message as { data: { attachments: Array<{ url: string }> } }).data.attachments.map((file) => file.url);
}

for (const name of ['image.json', 'photos.json', 'file.json']) {
  test(`getMessageAttachments gives the host each CDN link of ${name}, in order, with no headers`, async () => {
    const files = await createChannel().getMessageAttachments(storedEvent(name));
    assert.deepEqual(files, expectedUrls(name).map((url) => ({ url })));
    assert.ok(files.length > 0);
  });
}

test('getMessageAttachments gives nothing for a text, location or postback event', async () => {
  for (const name of ['text.json', 'location.json', 'postback.json']) {
    assert.deepEqual(await createChannel().getMessageAttachments(storedEvent(name)), [], name);
  }
});

test("the links are on the CDN hosts the package declares in bot.egress, so the host's download may reach them", () => {
  for (const name of ['image.json', 'photos.json', 'file.json']) {
    for (const url of expectedUrls(name)) assert.ok(['scontent.xx.fbcdn.net', 'cdn.fbsbx.com'].includes(new URL(url).hostname), url);
  }
});
