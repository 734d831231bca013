import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rebuildInboundEvent, type ChannelInboundEvent } from '@bot-ai/api';
import nock from 'nock';
import { BOT_TOKEN, createChannel, createSource, decodeDelivery, jsonRequest, SLACK_API } from './slack-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

const source = createSource();
const bearer = { authorization: `Bearer ${BOT_TOKEN}` };

function rebuilt(event: ChannelInboundEvent): ChannelInboundEvent {
  return rebuildInboundEvent(structuredClone(event.toPlain())).bindSource(source);
}

test("gives each file's url_private_download with the bot token, in order, without calling Slack", async () => {
  const event = rebuilt(decodeDelivery('message-im-file-share.json')[0]!);
  assert.deepEqual(await createChannel().getMessageAttachments(event), [
    { url: 'https://files.slack.com/files-pri/T061EG9R6-F0123ABCD45/download/img_0042.jpg', name: 'IMG_0042.jpg', mimeType: 'image/jpeg', headers: bearer },
    { url: 'https://files.slack.com/files-pri/T061EG9R6-F0456EFGH78/download/invoice-2024-03.pdf', name: 'invoice-2024-03.pdf', mimeType: 'application/pdf', headers: bearer },
  ]);
});

function eventWithFiles(files: unknown[]): ChannelInboundEvent {
  const body = {
    type: 'event_callback',
    team_id: 'T061EG9R6',
    api_app_id: 'A0MDYCDME',
    event_id: 'Ev0FILES002',
    event: { type: 'message', subtype: 'file_share', channel: 'D024BE91L', channel_type: 'im', user: 'U2147483697', text: '', ts: '1700000000.000100', files },
  };
  return rebuilt(createChannel().decode(jsonRequest(body), source)[0]!);
}

test('looks a file the event holds no URL for (a Slack Connect file) up with files.info', async () => {
  let asked: string | undefined;
  nock(SLACK_API)
    .get('/api/files.info')
    .query(true)
    .reply(async (request: Request) => {
      asked = request.url;
      assert.equal(request.headers.get('authorization'), `Bearer ${BOT_TOKEN}`);
      return [200, { ok: true, file: { id: 'F0CONNECT1', name: 'shared.png', mimetype: 'image/png', url_private_download: 'https://files.slack.com/files-pri/T0-F0CONNECT1/download/shared.png' } }];
    });
  const event = eventWithFiles([
    { id: 'F0LOCAL001', name: 'a.txt', mimetype: 'text/plain', url_private: 'https://files.slack.com/files-pri/T0-F0LOCAL001/a.txt' },
    { id: 'F0CONNECT1', file_access: 'check_file_info' },
  ]);
  assert.deepEqual(await createChannel().getMessageAttachments(event), [
    { url: 'https://files.slack.com/files-pri/T0-F0LOCAL001/a.txt', name: 'a.txt', mimeType: 'text/plain', headers: bearer },
    { url: 'https://files.slack.com/files-pri/T0-F0CONNECT1/download/shared.png', name: 'shared.png', mimeType: 'image/png', headers: bearer },
  ]);
  assert.equal(asked, 'https://slack.com/api/files.info?file=F0CONNECT1');
});

test('fails when Slack gives no URL for a file even through files.info', async () => {
  nock(SLACK_API).get('/api/files.info').query(true).reply(200, { ok: false, error: 'file_not_found' });
  await assert.rejects(createChannel().getMessageAttachments(eventWithFiles([{ id: 'F0GONE0001' }])), { name: 'SlackApiError', message: /files\.info: file_not_found/ });
  nock(SLACK_API).get('/api/files.info').query(true).reply(200, { ok: true, file: { id: 'F0GONE0001' } });
  await assert.rejects(createChannel().getMessageAttachments(eventWithFiles([{ id: 'F0GONE0001' }])), { code: 'SLACK_ERR_FILE_UNAVAILABLE' });
});

test('a text message has no attachments', async () => {
  assert.deepEqual(await createChannel().getMessageAttachments(rebuilt(decodeDelivery('message-im-text.json')[0]!)), []);
});
