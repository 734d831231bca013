import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rebuildInboundEvent, SendPacer, type ChannelInboundEvent, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import { MESSENGER_MEDIA_SEND_INTERVAL_MS } from 'bot-channel-messenger';
import { ADA, createChannel, createSource, graphAnswers, PAGE_ID, postRequest, SEND_SETTINGS } from './messenger-test-kit.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

/** A stored message event of `pageId`, as the host hands it to a send. */
function eventOf(pageId: string): ChannelInboundEvent {
  const body = { object: 'page', entry: [{ id: pageId, time: 1, messaging: [{ sender: { id: ADA }, recipient: { id: pageId }, timestamp: 1, message: { mid: `m_${pageId}`, text: 'hi' } }] }] };
  const source = createSource(SEND_SETTINGS);
  const [event] = createChannel().decode(postRequest(body), createSource()) as ChannelInboundEvent[];
  return rebuildInboundEvent(event!.bindSource(source).toPlain()).bindSource(source);
}

const media = (kind: 'image' | 'audio' | 'video'): StdOutgoingMessageEnvelope => ({ type: 'attachment', data: { attachment: { kind, url: `https://host.test/download/${kind}` } } });
const text: StdOutgoingMessageEnvelope = { type: 'text', data: { text: 'between' } };

test('spaces audio and video sends of one Page by 100 ms (Meta allows 10 a second), not text, images or other Pages', async () => {
  let clock = 0;
  const sleeps: number[] = [];
  const channel = createChannel();
  channel.mediaPacer = new SendPacer(MESSENGER_MEDIA_SEND_INTERVAL_MS, {
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
  });
  const { received } = graphAnswers('POST', '/v21.0/me/messages', 200, { recipient_id: ADA, message_id: 'm_sent' }, { times: 6 });
  const page = eventOf(PAGE_ID);
  const sends: Array<[ChannelInboundEvent, StdOutgoingMessageEnvelope]> = [
    [page, media('video')],
    [page, media('video')],
    [page, text],
    [page, media('image')],
    [page, media('audio')],
    [eventOf('109876543210987'), media('video')],
  ];
  for (const [event, envelope] of sends) await channel.doSendMessage(event, envelope, { idempotencyKey: 'k' });

  assert.equal(MESSENGER_MEDIA_SEND_INTERVAL_MS, 100);
  // The second video waits its 100 ms, the audio the rest of the interval the second video opened.
  assert.deepEqual(sleeps, [100, 100]);
  assert.deepEqual(
    received.map((request) => JSON.parse(request.body).message.attachment?.type ?? 'text'),
    ['video', 'video', 'text', 'image', 'audio', 'video'],
  );
});

test('every handler has its own media pacer by default, so a test or a second handler never shares slots', () => {
  const [first, second] = [createChannel(), createChannel()];
  assert.ok(first.mediaPacer instanceof SendPacer);
  assert.notEqual(first.mediaPacer, second.mediaPacer);
});
