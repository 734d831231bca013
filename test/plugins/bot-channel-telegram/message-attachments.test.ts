import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, rebuildInboundEvent, type ChannelInboundEvent } from '@bot-ai/api';
import { botApiAnswers, BOT_TOKEN, createChannel, createSource, deliveredEvent, readDelivery, SETTINGS } from './telegram-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

function stored(name: string, settings: Record<string, unknown> = SETTINGS): ChannelInboundEvent {
  const source = createSource(settings);
  return rebuildInboundEvent(structuredClone(deliveredEvent(name, source).toPlain())).bindSource(source);
}

function fileAnswer(filePath: string) {
  return { ok: true, result: { file_id: 'x', file_unique_id: 'y', file_size: 98761, file_path: filePath } };
}

test("looks the photo up with getFile { file_id } and hands the host its download URL, named after Telegram's path", async () => {
  const photoId = (readDelivery('photo.json').expect.events![0]!.message as { data: { attachments: Array<{ platformId: string }> } }).data.attachments[0]!.platformId;
  const { scope, received } = botApiAnswers('getFile', 200, fileAnswer('photos/file_0.jpg'));
  const refs = await createChannel().getMessageAttachments(stored('photo.json'));
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { file_id: photoId });
  assert.deepEqual(refs, [{ url: `https://api.telegram.org/file/bot${BOT_TOKEN}/photos/file_0.jpg`, name: 'file_0.jpg', mimeType: 'image/jpeg' }]);
});

test("keeps a document's own name and MIME type", async () => {
  botApiAnswers('getFile', 200, fileAnswer('documents/file_3.pdf'));
  assert.deepEqual(await createChannel().getMessageAttachments(stored('document.json')), [
    { url: `https://api.telegram.org/file/bot${BOT_TOKEN}/documents/file_3.pdf`, name: 'invoice-2025-11.pdf', mimeType: 'application/pdf' },
  ]);
});

test('downloads from the api_base_url of the source (a local Bot API server)', async () => {
  const settings = { ...SETTINGS, api_base_url: 'http://bot-api.internal:8081' };
  botApiAnswers('getFile', 200, fileAnswer('voice/file_9.oga'), { origin: 'http://bot-api.internal:8081' });
  const [ref] = await createChannel().getMessageAttachments(stored('voice.json', settings));
  assert.equal(ref!.url, `http://bot-api.internal:8081/file/bot${BOT_TOKEN}/voice/file_9.oga`);
});

test('has nothing to download for a message that is not an attachment, and calls nothing', async () => {
  assert.deepEqual(await createChannel().getMessageAttachments(stored('text-message.json')), []);
  assert.deepEqual(await createChannel().getMessageAttachments(stored('location.json')), []);
});

test('passes on an attachment that already has a URL and no file id', async () => {
  const event = new MessageInboundEvent(
    { channelName: 'telegram', rawEvent: {}, channelAttributes: {}, occurredAt: new Date(), eventId: 'e', senderForeignId: '1' },
    { type: 'attachment', data: { attachments: [{ kind: 'file', url: 'https://files.example/a.pdf', name: 'a.pdf' }] } },
  ).bindSource(createSource());
  assert.deepEqual(await createChannel().getMessageAttachments(event), [{ url: 'https://files.example/a.pdf', name: 'a.pdf' }]);
});

test('a file over the 20 MB bot download limit fails with the status Telegram gives', async () => {
  botApiAnswers('getFile', 400, { ok: false, error_code: 400, description: 'Bad Request: file is too big' });
  await assert.rejects(createChannel().getMessageAttachments(stored('video.json')), { code: 'BOT_ERR_CHANNEL_PLATFORM_STATUS', status: 400, message: /file is too big/ });
});

test('a getFile answer without file_path fails with TELEGRAM_ERR_FILE_UNAVAILABLE', async () => {
  botApiAnswers('getFile', 200, { ok: true, result: { file_id: 'x', file_unique_id: 'y' } });
  await assert.rejects(createChannel().getMessageAttachments(stored('photo.json')), { code: 'TELEGRAM_ERR_FILE_UNAVAILABLE' });
});
