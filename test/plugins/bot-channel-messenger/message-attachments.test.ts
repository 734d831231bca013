import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkEgressHosts } from '../../../host/channels/discovery/check-egress-hosts.ts';
import { egressRuleFor } from '../../../host/egress/egress-allowance.ts';
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
  const manifest = JSON.parse(readFileSync(new URL('../../../plugins/bot-channel-messenger/package.json', import.meta.url), 'utf8'));
  const allowance = { hosts: checkEgressHosts(manifest.bot.egress), origins: [] };
  const recorded = ['image.json', 'photos.json', 'file.json'].flatMap(expectedUrls);
  // Meta's edge hosts vary by region and by kind of file: none of them is on a list of names.
  const seen = ['https://scontent-iad3-1.xx.fbcdn.net/v/t1.15752-9/photo.jpg', 'https://video.xx.fbcdn.net/v/t42/clip.mp4', 'https://lookaside.fbsbx.com/file/report.pdf'];
  for (const url of [...recorded, ...seen]) assert.equal(egressRuleFor(new URL(url), allowance), 'public-address', url);
  for (const url of ['https://fbcdn.net.evil.example/x.jpg', 'https://example.com/x.jpg']) assert.equal(egressRuleFor(new URL(url), allowance), undefined, url);
});
