import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent } from '@bot-ai/api';
import nock from 'nock';
import { createChannel, createSource, decodeDelivery, GRAPH, SETTINGS } from './whatsapp-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const LOOKASIDE = 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1479537139650973&ext=1749416700&hash=ATuQ';

useNockedEgress();

function mediaAnswer(id: string, url: string, mimeType: string) {
  return { messaging_product: 'whatsapp', url, mime_type: mimeType, sha256: 'HgYK', file_size: 48213, id };
}

test('looks the media id up and returns its short-lived URL with the bearer header the download needs', async () => {
  let authorization: string | undefined;
  const scope = nock(GRAPH)
    .get('/v21.0/1479537139650973')
    .reply((request: Request) => {
      authorization = String(request.headers.get('authorization'));
      return [200, mediaAnswer('1479537139650973', LOOKASIDE, 'image/jpeg')];
    });
  const [event] = decodeDelivery('image.json');
  assert.deepEqual(await createChannel().getMessageAttachments(event!), [
    { url: LOOKASIDE, mimeType: 'image/jpeg', headers: { authorization: 'Bearer EAAtoken' } },
  ]);
  assert.ok(scope.isDone());
  assert.equal(authorization, 'Bearer EAAtoken');
});

test("keeps a document's file name", async () => {
  nock(GRAPH).get('/v21.0/1003383421387256').reply(200, mediaAnswer('1003383421387256', `${LOOKASIDE}&d=1`, 'application/pdf'));
  const [event] = decodeDelivery('document.json');
  const [file] = await createChannel().getMessageAttachments(event!);
  assert.deepEqual(file, { url: `${LOOKASIDE}&d=1`, name: 'invoice-2025-06.pdf', mimeType: 'application/pdf', headers: { authorization: 'Bearer EAAtoken' } });
});

test('returns one download per attachment, in order', async () => {
  nock(GRAPH).get('/v21.0/111').delay(50).reply(200, mediaAnswer('111', 'https://lookaside.fbsbx.com/a', 'image/png'));
  nock(GRAPH).get('/v21.0/222').reply(200, mediaAnswer('222', 'https://lookaside.fbsbx.com/b', 'image/png'));
  const event = new MessageInboundEvent(
    { channelName: 'whatsapp', rawEvent: {}, channelAttributes: {}, occurredAt: new Date(), eventId: 'wamid.X', senderForeignId: '1' },
    { type: 'attachment', data: { attachments: [{ kind: 'image', platformId: '111' }, { kind: 'image', platformId: '222' }] } },
  ).bindSource(createSource(SETTINGS));
  const files = await createChannel().getMessageAttachments(event);
  assert.deepEqual(files.map((file) => file.url), ['https://lookaside.fbsbx.com/a', 'https://lookaside.fbsbx.com/b']);
});

test('returns nothing for a message that is not an attachment, without calling the API', async () => {
  const [event] = decodeDelivery('text.json');
  assert.deepEqual(await createChannel().getMessageAttachments(event!), []);
});

test('fails with the platform status when the lookup fails (an expired or foreign media id)', async () => {
  nock(GRAPH).get('/v21.0/1479537139650973').reply(404, { error: { code: 100, message: 'Unsupported get request.' } });
  const [event] = decodeDelivery('image.json');
  await assert.rejects(createChannel().getMessageAttachments(event!), { name: 'PlatformResponseError', status: 404 });
});

test('fails with WHATSAPP_ERR_NO_MEDIA_URL when the lookup answers without a URL', async () => {
  nock(GRAPH).get('/v21.0/1479537139650973').reply(200, { id: '1479537139650973' });
  const [event] = decodeDelivery('image.json');
  await assert.rejects(createChannel().getMessageAttachments(event!), { code: 'WHATSAPP_ERR_NO_MEDIA_URL' });
});
