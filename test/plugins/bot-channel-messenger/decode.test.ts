import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, type ChannelInboundEvent } from '@bot-ai/api';
import { entryNoiseRule, messagingNoiseRule, messengerPayloadSchema, type MessengerNoiseRule } from 'bot-channel-messenger';
import { ADA, createChannel, createSource, decodeDelivery, deliveryNames, deliveryRequest, PAGE_ID, postRequest, readDelivery } from './messenger-test-kit.ts';

const channel = createChannel();

function decode(body: unknown, settings: Record<string, unknown> = {}): ChannelInboundEvent[] {
  return channel.decode(postRequest(body), createSource(settings)) as ChannelInboundEvent[];
}

/** A body with one entry of the Page holding `items`. */
function page(...items: unknown[]): Record<string, unknown> {
  return { object: 'page', entry: [{ id: PAGE_ID, time: 1763800000500, messaging: items }] };
}

function item(overrides: Record<string, unknown>): Record<string, unknown> {
  return { sender: { id: ADA }, recipient: { id: PAGE_ID }, timestamp: 1763800000000, ...overrides };
}

// Every recorded delivery decodes to exactly the events it lists (the fields written are compared).
for (const name of deliveryNames()) {
  const delivery = readDelivery(name);
  test(`${name}: ${delivery.description}`, () => {
    const source = createSource({ page_id: PAGE_ID });
    if (delivery.expect.status === 400) {
      assert.throws(() => channel.decode(deliveryRequest(name), source), { code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' });
      return;
    }
    const events = (channel.decode(deliveryRequest(name), source) as ChannelInboundEvent[]).map((event) => event.bindSource(source).toPlain());
    const expected = delivery.expect.events ?? readDelivery(delivery.sameEventsAs!).expect.events!;
    assert.equal(events.length, expected.length, `events: ${events.map((event) => event.eventId).join(', ')}`);
    expected.forEach((want, index) => assert.partialDeepStrictEqual(events[index], want));
  });
}

const noiseFixtures: Array<[string, MessengerNoiseRule]> = [
  ['echo.json', 'echo'],
  ['delivery.json', 'delivery'],
  ['read.json', 'read'],
  ['reaction.json', 'reaction'],
  ['optin.json', 'optin'],
  ['referral.json', 'referral'],
];

for (const [name, rule] of noiseFixtures) {
  test(`the noise rule "${rule}" is what drops ${name}`, () => {
    const payload = messengerPayloadSchema.parse(readDelivery(name).request.body);
    assert.equal(messagingNoiseRule(payload.entry[0]!.messaging![0]!), rule);
    assert.deepEqual(decodeDelivery(name), []);
  });
}

test('the noise rule "other-page" drops an entry of another Page only when page_id is set', () => {
  const payload = messengerPayloadSchema.parse(readDelivery('other-page.json').request.body);
  assert.equal(entryNoiseRule(payload.entry[0]!, { pageId: PAGE_ID }), 'other-page');
  assert.equal(entryNoiseRule(payload.entry[0]!, { pageId: '' }), undefined);
  assert.deepEqual(decodeDelivery('other-page.json', { page_id: PAGE_ID }), []);
  assert.deepEqual(decodeDelivery('other-page.json', {}).map((event) => event.getEventId()), [
    'm_Op9Aq6Br3Cs0Dt7Eu4Fv1Gw8Hx5Iy2Jz9Ka6Lb3Mc0Nd7Oe4Pf1Qg8Rh5Si2Tj9Uk6Vl3Wm0Xn7Yo4Zp1Aq8B',
  ]);
});

test('a message, even one with text, is not dropped by the notification rules', () => {
  const withReferral = item({ message: { mid: 'm_1', text: 'hi' }, referral: { ref: 'ad-1', source: 'ADS', type: 'OPEN_THREAD' } });
  assert.equal(messagingNoiseRule(messengerPayloadSchema.parse(page(withReferral)).entry[0]!.messaging![0]!), undefined);
  assert.deepEqual(decode(page(withReferral)).map((event) => event.getEventId()), ['m_1']);
});

test('a batch becomes one event per message in order, across entries', () => {
  const events = decodeDelivery('batch.json') as MessageInboundEvent[];
  assert.deepEqual(
    events.map((event) => [event.getSenderForeignId(), event.getText()]),
    [
      [ADA, 'Do you deliver on Sundays?'],
      ['7130284915527734', 'Hi there'],
      [ADA, 'And to Brighton?'],
    ],
  );
});

test('builds the event context from the messaging item: ids, Page, time and the raw item', () => {
  const raw = item({ message: { mid: 'm_ctx', text: 'hello' } });
  const [event] = decode(page(raw));
  assert.equal(event!.getChannelName(), 'messenger');
  assert.equal(event!.getEventId(), 'm_ctx');
  assert.equal(event!.getSenderForeignId(), ADA);
  assert.equal(event!.getRecipientForeignId(), PAGE_ID);
  assert.deepEqual(event!.getChannelData(), { page_id: PAGE_ID });
  assert.equal(event!.getOccurredAt().toISOString(), new Date(1763800000000).toISOString());
  assert.deepEqual(event!.getRawEvent(), raw);
});

const dated: Array<[string, unknown, number]> = [
  ['in milliseconds', 1763800000000, 1763800000000],
  ['as a string of seconds, as in the reference examples', '1763800000', 1763800000000],
  ['absent: the entry time', undefined, 1763800000500],
  ['not a time: the entry time', 'yesterday', 1763800000500],
];
for (const [name, timestamp, expected] of dated) {
  test(`dates an item whose timestamp is ${name}`, () => {
    const [event] = decode(page(item({ timestamp, message: { mid: 'm_t', text: 'hi' } })));
    assert.equal(event!.getOccurredAt().getTime(), expected);
  });
}

test('dates an item with neither a timestamp nor an entry time at the current time', () => {
  const before = Date.now();
  const [event] = decode({ object: 'page', entry: [{ id: PAGE_ID, messaging: [item({ timestamp: undefined, message: { mid: 'm_t', text: 'hi' } })] }] });
  assert.ok(event!.getOccurredAt().getTime() >= before);
});

test('a postback without mid is named by its sender and timestamp, the same on every redelivery', () => {
  const postback = item({ timestamp: 1763800031000, postback: { title: 'Track', payload: 'TRACK' } });
  const [first] = decode(page(postback));
  const [again] = decode(page(postback));
  assert.equal(first!.getEventId(), `postback:${ADA}:1763800031000`);
  assert.equal(again!.getEventId(), first!.getEventId());
});

const messages: Array<{ name: string; raw: Record<string, unknown>; expected: unknown }> = [
  {
    name: 'a postback without a payload (sent to another app) as text with its title',
    raw: { postback: { mid: 'm_p', title: 'Talk to us' } },
    expected: { type: 'text', data: { text: 'Talk to us' } },
  },
  {
    name: 'a postback without a title as a quick reply whose text is the payload',
    raw: { postback: { mid: 'm_p', payload: 'MENU_HELP' } },
    expected: { type: 'quickReply', data: { text: 'MENU_HELP', payload: 'MENU_HELP' } },
  },
  {
    name: 'a quick reply without text as a quick reply whose text is the payload',
    raw: { message: { mid: 'm_q', quick_reply: { payload: 'YES' } } },
    expected: { type: 'quickReply', data: { text: 'YES', payload: 'YES' } },
  },
  {
    name: 'audio and video attachments, skipping one without a usable url',
    raw: {
      message: {
        mid: 'm_a',
        attachments: [
          { type: 'audio', payload: { url: 'https://cdn.fbsbx.com/v/audioclip-1.mp4' } },
          { type: 'video', payload: { url: 'not a url' } },
          { type: 'video', payload: { url: 'javascript:alert(1)' } },
          { type: 'video', payload: { url: 'https://video.xx.fbcdn.net/v/t42/clip.mp4' } },
        ],
      },
    },
    expected: {
      type: 'attachment',
      data: {
        attachments: [
          { kind: 'audio', url: 'https://cdn.fbsbx.com/v/audioclip-1.mp4' },
          { kind: 'video', url: 'https://video.xx.fbcdn.net/v/t42/clip.mp4' },
        ],
      },
    },
  },
  {
    name: 'a location without a title, with the message text',
    raw: { message: { mid: 'm_l', text: 'here', attachments: [{ type: 'location', payload: { coordinates: { lat: -33.8568, long: 151.2153 } } }] } },
    expected: { type: 'location', data: { text: 'here', location: { latitude: -33.8568, longitude: 151.2153 } } },
  },
];
for (const { name, raw, expected } of messages) {
  test(`decodes ${name}`, () => {
    const [event, ...rest] = decode(page(item(raw)));
    assert.equal(rest.length, 0);
    assert.ok(event instanceof MessageInboundEvent);
    assert.deepEqual(event.getMessage(), expected);
  });
}

const skipped: Array<[string, Record<string, unknown>]> = [
  ['a template attachment (a shared product)', { message: { mid: 'm_s', attachments: [{ type: 'template', payload: { template_type: 'product', product: { elements: [] } } }] } }],
  ['a reel share', { message: { mid: 'm_s', attachments: [{ type: 'reel', payload: { url: 'https://www.facebook.com/reel/1', reel_video_id: 1 } }] } }],
  ['a location out of range', { message: { mid: 'm_s', attachments: [{ type: 'location', payload: { coordinates: { lat: 91, long: 0 } } }] } }],
  ['a message with empty text', { message: { mid: 'm_s', text: '' } }],
  ['an unknown notification (message_edit)', { message_edit: { mid: 'm_s', text: 'edited', num_edit: 1 } }],
  ['a postback with neither title nor payload', { postback: { mid: 'm_s' } }],
];
for (const [name, raw] of skipped) {
  test(`skips ${name}`, () => {
    assert.deepEqual(decode(page(item(raw))), []);
  });
}

test('an event from a chat plugin visitor (sender.user_ref, no PSID) has no sender: it is stored but runs no workflow', () => {
  const [event] = decode(page({ sender: { user_ref: 'ur-1' }, recipient: { id: PAGE_ID }, timestamp: 1, postback: { title: 'Start', payload: 'START' } }));
  assert.equal(event!.getSenderForeignId(), undefined);
  assert.equal(event!.getEventId(), 'postback:ur-1:1');
});

test('an entry id written as a number is read as the Page id', () => {
  const [event] = decode({ object: 'page', entry: [{ id: Number(PAGE_ID), time: 1, messaging: [item({ message: { mid: 'm_n', text: 'hi' } })] }] }, { page_id: PAGE_ID });
  assert.deepEqual(event!.getChannelData(), { page_id: PAGE_ID });
});

const rejectedBodies: Array<[string, unknown]> = [
  ['object is instagram', { object: 'instagram', entry: [] }],
  ['object is whatsapp_business_account', { object: 'whatsapp_business_account', entry: [] }],
  ['object is absent', { entry: [] }],
  ['entry is absent', { object: 'page' }],
  ['entry is an object', { object: 'page', entry: { id: PAGE_ID } }],
  ['an entry has no id', { object: 'page', entry: [{ messaging: [] }] }],
  ['messaging is not an array', { object: 'page', entry: [{ id: PAGE_ID, messaging: {} }] }],
  ['a message has no mid', page(item({ message: { text: 'hi' } }))],
  ['a message text is a number', page(item({ message: { mid: 'm_1', text: 42 } }))],
  ['an attachment has no type', page(item({ message: { mid: 'm_1', attachments: [{ payload: { url: 'https://x.test/a' } }] } }))],
  ['the body is a string', 'hello'],
  ['the body is not JSON', undefined],
];
for (const [name, body] of rejectedBodies) {
  test(`rejects the payload with PayloadRejectedError when ${name}`, () => {
    const request = { ...postRequest({}), body };
    assert.throws(() => channel.decode(request, createSource()), { name: 'PayloadRejectedError', code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' });
  });
}
