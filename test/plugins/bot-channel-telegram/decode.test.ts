import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, type ChannelInboundEvent } from '@bot-ai/api';
import { TELEGRAM_SERVICE_MESSAGE_FIELDS, telegramNoiseRuleOf, telegramUpdateSchema, type TelegramNoiseRule } from 'bot-channel-telegram';
import { ADA_ID, BOT_ID, createChannel, createSource, deliveryBody, deliveryNames, postRequest, readDelivery, SETTINGS } from './telegram-fixtures.ts';

const channel = createChannel();

function decode(body: unknown, settings: Record<string, unknown> = SETTINGS): ChannelInboundEvent[] {
  return channel.decode(postRequest(body), createSource(settings)) as ChannelInboundEvent[];
}

function decodeOne(body: unknown): MessageInboundEvent {
  const events = decode(body);
  assert.equal(events.length, 1, 'one event per update');
  assert.ok(events[0] instanceof MessageInboundEvent);
  return events[0];
}

const ada = { id: ADA_ID, is_bot: false, first_name: 'Ada', language_code: 'en' };
const adaChat = { id: ADA_ID, first_name: 'Ada', type: 'private' };

function messageUpdate(fields: Record<string, unknown>, updateId = 900001): Record<string, unknown> {
  return { update_id: updateId, message: { message_id: 5, from: ada, chat: adaChat, date: 1763800000, ...fields } };
}

// The recorded deliveries, each decoded exactly as its file expects (the author kit's check, here
// without a host): text, group text, media, the button press, location, venue, every noise rule.
for (const name of deliveryNames()) {
  const delivery = readDelivery(name);
  const status = delivery.expect.status ?? 200;
  test(`${name}: ${delivery.description}`, () => {
    if (status === 400) {
      assert.throws(() => decode(delivery.request.body), { name: 'PayloadRejectedError', code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' });
      return;
    }
    const events = decode(delivery.request.body).map((event) => event.toPlain() as unknown as Record<string, unknown>);
    const expected = delivery.expect.events ?? [];
    assert.equal(events.length, expected.length);
    expected.forEach((want, index) => {
      for (const [key, value] of Object.entries(want)) assert.deepEqual(events[index]![key], value, `event ${index} ${key}`);
    });
  });
}

const noiseFixtures: Array<[string, TelegramNoiseRule]> = [
  ['noise-edited-message.json', 'not-subscribed-update'],
  ['noise-my-chat-member.json', 'not-subscribed-update'],
  ['noise-channel-post.json', 'not-subscribed-update'],
  ['noise-from-bot.json', 'from-bot'],
  ['noise-service-new-chat-members.json', 'service-message'],
  ['noise-service-pinned-message.json', 'service-message'],
  ['noise-sticker.json', 'no-decodable-content'],
  ['noise-callback-game.json', 'callback-without-data'],
  ['noise-no-sender.json', 'no-sender'],
];

/** Every rule, so that the test below fails when a rule is added without its recording. */
const EVERY_NOISE_RULE = { 'not-subscribed-update': true, 'no-sender': true, 'from-bot': true, 'service-message': true, 'no-decodable-content': true, 'callback-without-data': true } satisfies Record<TelegramNoiseRule, true>;

test('every noise rule has a recorded delivery, and every delivery that decodes to nothing is named above', () => {
  const recorded = new Set(noiseFixtures.map(([, rule]) => rule));
  for (const rule of Object.keys(EVERY_NOISE_RULE)) assert.ok(recorded.has(rule as TelegramNoiseRule), `${rule} has a fixture`);
  const named = new Set(noiseFixtures.map(([name]) => name));
  for (const name of deliveryNames()) {
    const { expect } = readDelivery(name);
    if ((expect.status ?? 200) === 200 && expect.events?.length === 0) assert.ok(named.has(name), `${name} names its rule`);
  }
});

for (const [name, rule] of noiseFixtures) {
  test(`${name} is dropped by the noise rule ${rule}`, () => {
    assert.equal(telegramNoiseRuleOf(telegramUpdateSchema.parse(deliveryBody(name))), rule);
    assert.deepEqual(decode(deliveryBody(name)), []);
  });
}

const noiseCases: Array<{ name: string; rule: TelegramNoiseRule; body: Record<string, unknown> }> = [
  { name: 'a message without from (as in channels)', rule: 'no-sender', body: { update_id: 1, message: { message_id: 1, chat: { id: -100200, type: 'channel' }, date: 1763800000, text: 'post' } } },
  { name: 'a button press by a bot', rule: 'from-bot', body: { update_id: 2, callback_query: { id: 'cq-2', from: { id: 61, is_bot: true, first_name: 'B' }, data: 'X' } } },
  { name: 'an update type Telegram added later', rule: 'not-subscribed-update', body: { update_id: 3, business_message: { message_id: 1, text: 'hi' } } },
  { name: 'an update with nothing but its id', rule: 'not-subscribed-update', body: { update_id: 4 } },
  { name: 'a poll', rule: 'no-decodable-content', body: messageUpdate({ poll: { id: 'p1', question: 'Tea?', options: [] } }) },
  { name: 'a shared contact', rule: 'no-decodable-content', body: messageUpdate({ contact: { phone_number: '+441234567890', first_name: 'Bob' } }) },
  { name: 'a content type Telegram added later', rule: 'no-decodable-content', body: messageUpdate({ hologram: { file_id: 'h1' } }) },
  { name: 'a service message with text beside it', rule: 'service-message', body: messageUpdate({ text: 'hi', new_chat_title: 'Renamed' }) },
];

for (const { name, rule, body } of noiseCases) {
  test(`drops ${name} (noise rule ${rule})`, () => {
    assert.equal(telegramNoiseRuleOf(telegramUpdateSchema.parse(body)), rule);
    assert.deepEqual(decode(body), []);
  });
}

// With a text beside the field, so that only the service rule can drop it.
for (const field of TELEGRAM_SERVICE_MESSAGE_FIELDS) {
  test(`drops a service message carrying ${field}`, () => {
    const body = messageUpdate({ text: 'hi', [field]: field === 'new_chat_members' ? [ada] : true });
    assert.equal(telegramNoiseRuleOf(telegramUpdateSchema.parse(body)), 'service-message');
    assert.deepEqual(decode(body), []);
  });
}

test('builds the event context from the update: update_id, sender, bot, chat, date and the raw update', () => {
  const body = deliveryBody('text-message.json');
  const event = decodeOne(body);
  assert.equal(event.getChannelName(), 'telegram');
  assert.equal(event.getEventId(), '734001201');
  assert.equal(event.getSenderForeignId(), String(ADA_ID));
  assert.equal(event.getRecipientForeignId(), BOT_ID);
  assert.deepEqual(event.getChannelData(), { chat_id: ADA_ID });
  assert.equal(event.getOccurredAt().toISOString(), new Date(1763800000 * 1000).toISOString());
  assert.deepEqual(event.getRawEvent(), body);
});

test('a retried update (same update_id) decodes to the same event id', () => {
  const first = decodeOne(deliveryBody('text-message.json'));
  const retry = decodeOne(readDelivery('text-message-retry.json').request.body);
  assert.equal(readDelivery('text-message-retry.json').sameEventsAs, 'text-message.json');
  assert.equal(retry.getEventId(), first.getEventId());
});

test('leaves the recipient out while the source has no bot token', () => {
  const [event] = decode(deliveryBody('text-message.json'), { secret_token: 'x' });
  assert.equal(event!.getRecipientForeignId(), undefined);
});

test('a group message replies to the group chat, and the subscriber is still the user', () => {
  const event = decodeOne(deliveryBody('group-text-message.json'));
  assert.equal(event.getSenderForeignId(), String(ADA_ID));
  assert.deepEqual(event.getChannelData(), { chat_id: -1001234567890 });
});

test('keeps the largest photo size by pixels, wherever Telegram lists it', () => {
  const photo = [
    { file_id: 'small', width: 90, height: 90 },
    { file_id: 'large', width: 1280, height: 1280 },
    { file_id: 'medium', width: 320, height: 320 },
  ];
  assert.deepEqual(decodeOne(messageUpdate({ photo })).getMessage(), {
    type: 'attachment',
    data: { attachments: [{ kind: 'image', platformId: 'large', mimeType: 'image/jpeg' }] },
  });
});

const files: Array<{ field: string; file: Record<string, unknown>; expected: Record<string, unknown> }> = [
  {
    field: 'audio',
    file: { file_id: 'CQAC-audio', file_name: 'song.mp3', mime_type: 'audio/mpeg', duration: 180 },
    expected: { kind: 'audio', platformId: 'CQAC-audio', name: 'song.mp3', mimeType: 'audio/mpeg' },
  },
  { field: 'voice', file: { file_id: 'AwAC-voice', mime_type: 'audio/ogg', duration: 2 }, expected: { kind: 'audio', platformId: 'AwAC-voice', mimeType: 'audio/ogg' } },
  { field: 'video', file: { file_id: 'BAAC-video', mime_type: 'video/mp4' }, expected: { kind: 'video', platformId: 'BAAC-video', mimeType: 'video/mp4' } },
  { field: 'video_note', file: { file_id: 'DQAC-note', length: 240, duration: 5 }, expected: { kind: 'video', platformId: 'DQAC-note' } },
  {
    field: 'document',
    file: { file_id: 'BQAC-doc', file_name: 'scan.png', mime_type: 'image/png' },
    expected: { kind: 'file', platformId: 'BQAC-doc', name: 'scan.png', mimeType: 'image/png' },
  },
];

for (const { field, file, expected } of files) {
  test(`decodes a ${field} as a ${String(expected.kind)} attachment by its file_id, with its caption as text`, () => {
    assert.deepEqual(decodeOne(messageUpdate({ [field]: file, caption: 'look' })).getMessage(), {
      type: 'attachment',
      data: { text: 'look', attachments: [expected] },
    });
  });
}

test('never puts a download URL (which would hold the bot token) in an attachment event', () => {
  const plain = JSON.stringify(decodeOne(deliveryBody('photo.json')).toPlain());
  assert.doesNotMatch(plain, /api\.telegram\.org|\/file\/bot/);
  assert.ok(!plain.includes(SETTINGS.bot_token));
});

test('decodes a command as plain text', () => {
  assert.deepEqual(decodeOne(messageUpdate({ text: '/start welcome' })).getMessage(), { type: 'text', data: { text: '/start welcome' } });
});

test('decodes a live location (its first message) as a location', () => {
  const event = decodeOne(messageUpdate({ location: { latitude: -33.8568, longitude: 151.2153, live_period: 900, heading: 90 } }));
  assert.deepEqual(event.getMessage(), { type: 'location', data: { location: { latitude: -33.8568, longitude: 151.2153 } } });
});

test('a venue without an address keeps its title only', () => {
  const location = { latitude: 1.5, longitude: 2.5 };
  const event = decodeOne(messageUpdate({ location, venue: { location, title: 'Home' } }));
  assert.deepEqual(event.getMessage(), { type: 'location', data: { location: { latitude: 1.5, longitude: 2.5, title: 'Home' } } });
});

function callbackUpdate(query: Record<string, unknown>): Record<string, unknown> {
  return { update_id: 900100, callback_query: { id: 'cq-1', from: { ...ada, language_code: 'pt-br' }, chat_instance: '-1', ...query } };
}

test('a button press takes the text of the pressed button from any row of the keyboard', () => {
  const keyboard = { inline_keyboard: [[{ text: 'Docs', url: 'https://example.com' }], [{ text: 'One', callback_data: 'OPT_1' }, { text: 'Two', callback_data: 'OPT_2' }]] };
  const event = decodeOne(callbackUpdate({ data: 'OPT_2', message: { message_id: 3, chat: adaChat, date: 1763800000, text: 'Pick', reply_markup: keyboard } }));
  assert.deepEqual(event.getMessage(), { type: 'quickReply', data: { text: 'Two', payload: 'OPT_2' } });
  assert.equal(event.getEventId(), '900100');
  assert.equal(event.getSenderForeignId(), String(ADA_ID));
});

test('a button press on a message too old to be sent along (InaccessibleMessage) uses the data as its text', () => {
  const event = decodeOne(callbackUpdate({ data: 'OPT_1', message: { message_id: 3, chat: adaChat, date: 0 } }));
  assert.deepEqual(event.getMessage(), { type: 'quickReply', data: { text: 'OPT_1', payload: 'OPT_1' } });
  assert.deepEqual(event.getChannelData(), { chat_id: ADA_ID });
});

test("a button press on an inline-mode message (no message) replies to the user's private chat", () => {
  const event = decodeOne(callbackUpdate({ data: 'OPT_1', inline_message_id: 'AAAAAGHl' }));
  assert.deepEqual(event.getChannelData(), { chat_id: ADA_ID });
});

test('a button press is dated when it is decoded (Telegram does not date it), not at the date of the message it was on', () => {
  const before = Date.now();
  const event = decodeOne(deliveryBody('callback-query.json'));
  assert.ok(event.getOccurredAt().getTime() >= before);
});

const rejectedBodies: Array<[string, unknown]> = [
  ['the body is not JSON', undefined],
  ['the body is a string', 'update'],
  ['the body is an array (Telegram never batches)', [deliveryBody('text-message.json')]],
  ['update_id is absent', { message: deliveryBody('text-message.json').message }],
  ['update_id is a string', { update_id: '734001201' }],
  ['a message has no chat', { update_id: 1, message: { message_id: 1, from: ada, date: 1763800000, text: 'hi' } }],
  ['a chat id is a string', messageUpdate({ chat: { id: '42' }, text: 'hi' })],
  ['a text is a number', messageUpdate({ text: 42 })],
  ['a photo has no sizes', messageUpdate({ photo: [] })],
  ['a latitude is out of range', messageUpdate({ location: { latitude: 91, longitude: 0 } })],
  ['a callback query has no id', { update_id: 1, callback_query: { from: ada, data: 'X' } }],
];

for (const [name, body] of rejectedBodies) {
  test(`rejects the body with PayloadRejectedError when ${name}`, () => {
    assert.throws(() => decode(body), { name: 'PayloadRejectedError', code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED', message: /not a Telegram Update/ });
  });
}
