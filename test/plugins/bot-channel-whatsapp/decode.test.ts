import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, type ChannelInboundEvent } from '@bot-ai/api';
import { changeNoiseRule, messageNoiseRule } from 'bot-channel-whatsapp';
import { createChannel, createSource, deliveryNames, deliveryRequest, PHONE_NUMBER_ID, postRequest, readDelivery, SETTINGS } from './whatsapp-fixtures.ts';

const channel = createChannel();

function decode(body: unknown, settings: Record<string, unknown> = SETTINGS): ChannelInboundEvent[] {
  return channel.decode(postRequest(body), createSource(settings)) as ChannelInboundEvent[];
}

/** The fields of an event the author kit compares. */
function comparable(event: ChannelInboundEvent): Record<string, unknown> {
  const plain = event.toPlain();
  return {
    eventId: plain.eventId,
    kind: plain.kind,
    senderForeignId: plain.senderForeignId,
    recipientForeignId: plain.recipientForeignId,
    message: plain.message,
    channelAttributes: plain.channelAttributes,
  };
}

// Every recorded delivery, as the author kit runs it: the events it lists, in order, or a 400.
for (const name of deliveryNames()) {
  const { description, expect } = readDelivery(name);
  test(`fixture ${name}: ${description}`, () => {
    if (expect.status === 400) {
      assert.throws(() => channel.decode(deliveryRequest(name), createSource()), { name: 'PayloadRejectedError', code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' });
      return;
    }
    assert.equal(expect.status, 200);
    const events = channel.decode(deliveryRequest(name), createSource()) as ChannelInboundEvent[];
    assert.ok(expect.events, `${name} lists its events`);
    assert.equal(events.length, expect.events.length);
    events.forEach((event, index) => {
      const expected = expect.events![index]!;
      const actual = comparable(event);
      for (const key of Object.keys(expected)) assert.deepEqual(actual[key], expected[key], `${name} event ${index} ${key}`);
    });
  });
}

test('a retried delivery decodes to the same event ids as the first, so the host stores it once', () => {
  const retry = readDelivery('retry-duplicate.json');
  assert.equal(retry.sameEventsAs, 'text.json');
  const ids = (name: string) => (channel.decode(deliveryRequest(name), createSource()) as ChannelInboundEvent[]).map((event) => event.getEventId());
  assert.deepEqual(ids('retry-duplicate.json'), ids('text.json'));
  assert.deepEqual(ids('text.json'), ['wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUZCQjU1MjYxMjc0RjVGQ0E4MAA=']);
});

test('the fixtures cover every decoded type and every noise rule', () => {
  const names = deliveryNames();
  for (const required of ['text.json', 'batch.json', 'image.json', 'button-reply.json', 'list-reply.json', 'template-button.json', 'location.json', 'retry-duplicate.json']) {
    assert.ok(names.includes(required), required);
  }
  for (const rule of ['statuses', 'reaction', 'system', 'unsupported', 'errors', 'other-field', 'other-phone-number']) {
    const name = `noise-${rule}.json`;
    assert.ok(names.includes(name), name);
    assert.deepEqual(readDelivery(name).expect.events, []);
  }
});

test('a batch decodes to one event per message across entries and changes, in order, each with its own sender', () => {
  const events = channel.decode(deliveryRequest('batch.json'), createSource()) as MessageInboundEvent[];
  assert.deepEqual(
    events.map((event) => [event.getSenderForeignId(), event.getText()]),
    [
      ['16505551234', 'First question: do you deliver?'],
      ['447700900123', 'Hello from London'],
      ['16505551234', 'And on Sundays?'],
    ],
  );
});

test('builds the event context: wamid, sender, business number, channel attributes and the date from the Unix timestamp', () => {
  const [event] = channel.decode(deliveryRequest('text.json'), createSource()) as MessageInboundEvent[];
  assert.ok(event instanceof MessageInboundEvent);
  assert.equal(event.getChannelName(), 'whatsapp');
  assert.equal(event.getEventId(), 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUZCQjU1MjYxMjc0RjVGQ0E4MAA=');
  assert.equal(event.getSenderForeignId(), '16505551234');
  assert.equal(event.getRecipientForeignId(), PHONE_NUMBER_ID);
  assert.deepEqual(event.getChannelData(), { phone_number_id: PHONE_NUMBER_ID, display_phone_number: '15550783881' });
  assert.equal(event.getOccurredAt().toISOString(), new Date(1749416383 * 1000).toISOString());
});

test("the raw event is the change's value narrowed to the message and its sender's contact", () => {
  const events = channel.decode(deliveryRequest('batch.json'), createSource()) as MessageInboundEvent[];
  const raw = events[1]!.getRawEvent<{ metadata: unknown; contacts: unknown[]; messages: Array<{ id: string }> }>();
  assert.deepEqual(raw.contacts, [{ profile: { name: 'Omar Haddad' }, wa_id: '447700900123' }]);
  assert.deepEqual(raw.messages.map((message) => message.id), [events[1]!.getEventId()]);
  assert.deepEqual(raw.metadata, { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID });
});

test('an attachment event holds the media id, never a download URL', () => {
  const [event] = channel.decode(deliveryRequest('image.json'), createSource()) as MessageInboundEvent[];
  const message = event!.getMessage();
  assert.equal(message.type, 'attachment');
  assert.equal(JSON.stringify(event!.toPlain()).includes('http'), false);
});

/** A `messages` body with one message of the given fields. */
function oneMessage(fields: Record<string, unknown>, metadata: Record<string, unknown> = { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID }): unknown {
  const message = { from: '16505551234', id: 'wamid.TEST', timestamp: '1749416383', ...fields };
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, messages: [message] } }] }],
  };
}

const mediaKinds: Array<[string, string]> = [
  ['image', 'image'],
  ['sticker', 'image'],
  ['audio', 'audio'],
  ['video', 'video'],
  ['document', 'file'],
];

for (const [type, kind] of mediaKinds) {
  test(`decodes a ${type} message to an attachment of kind ${kind}`, () => {
    const [event] = decode(oneMessage({ type, [type]: { id: 'media-1', mime_type: 'x/y' } })) as MessageInboundEvent[];
    assert.deepEqual(event!.getMessage(), { type: 'attachment', data: { attachments: [{ kind, platformId: 'media-1', mimeType: 'x/y' }] } });
  });
}

test('decodes a video with a caption: the caption is the text', () => {
  const [event] = decode(oneMessage({ type: 'video', video: { id: 'media-2', caption: 'Look' } })) as MessageInboundEvent[];
  assert.deepEqual(event!.getMessage(), { type: 'attachment', data: { text: 'Look', attachments: [{ kind: 'video', platformId: 'media-2' }] } });
});

test('decodes a template button without a payload to a quick reply whose payload is its text', () => {
  const [event] = decode(oneMessage({ type: 'button', button: { text: 'Stop promotions' } })) as MessageInboundEvent[];
  assert.deepEqual(event!.getMessage(), { type: 'quickReply', data: { text: 'Stop promotions', payload: 'Stop promotions' } });
});

test('decodes a location without a name or address', () => {
  const [event] = decode(oneMessage({ type: 'location', location: { latitude: -33.8568, longitude: 151.2153 } })) as MessageInboundEvent[];
  assert.deepEqual(event!.getMessage(), { type: 'location', data: { location: { latitude: -33.8568, longitude: 151.2153 } } });
});

const noise: Array<[string, Record<string, unknown>]> = [
  ['a reaction', { type: 'reaction', reaction: { message_id: 'wamid.OUT', emoji: '👍' } }],
  ['a removed reaction', { type: 'reaction', reaction: { message_id: 'wamid.OUT' } }],
  ['a system notice', { type: 'system', system: { body: 'changed number', type: 'user_changed_number' } }],
  ['an unsupported message', { type: 'unsupported' }],
  ['an unknown message (the older name)', { type: 'unknown' }],
  ['a text message that carries errors', { type: 'text', text: { body: 'hi' }, errors: [{ code: 131051 }] }],
];

for (const [name, fields] of noise) {
  test(`drops ${name}`, () => {
    assert.deepEqual(decode(oneMessage(fields)), []);
  });
}

test('each noise rule is named for what it drops', () => {
  assert.equal(messageNoiseRule({ type: 'reaction' }), 'reaction');
  assert.equal(messageNoiseRule({ type: 'system' }), 'system');
  assert.equal(messageNoiseRule({ type: 'unsupported' }), 'unsupported');
  assert.equal(messageNoiseRule({ type: 'unknown' }), 'unsupported');
  assert.equal(messageNoiseRule({ type: 'text', errors: [{}] }), 'errors');
  assert.equal(messageNoiseRule({ type: 'text', errors: [] }), undefined);
  assert.equal(messageNoiseRule({ type: 'text' }), undefined);
  assert.equal(changeNoiseRule({ field: 'account_update', value: {} }), 'other-field');
  assert.equal(changeNoiseRule({ field: 'messages', value: {} }), undefined);
});

const skipped: Array<[string, Record<string, unknown>]> = [
  ['a shared contact card', { type: 'contacts', contacts: [{ name: { formatted_name: 'Ada' } }] }],
  ['an order', { type: 'order', order: { catalog_id: '1', product_items: [] } }],
  ['a flow reply', { type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { response_json: '{}' } } }],
  ['an interactive reply whose type does not match its content', { type: 'interactive', interactive: { type: 'list_reply', button_reply: { id: 'A', title: 'A' } } }],
  ['a text message without its text', { type: 'text' }],
  ['an image without its media', { type: 'image' }],
  ['a location out of range', { type: 'location', location: { latitude: 91, longitude: 0 } }],
  ['a request_welcome', { type: 'request_welcome' }],
];

for (const [name, fields] of skipped) {
  test(`skips ${name} without rejecting the delivery`, () => {
    assert.deepEqual(decode(oneMessage(fields)), []);
  });
}

test('drops messages to another business number, and accepts every number when phone_number_id is empty', () => {
  const body = oneMessage({ type: 'text', text: { body: 'hi' } }, { display_phone_number: '15550101999', phone_number_id: '109876543210987' });
  assert.deepEqual(decode(body), []);
  const [event] = decode(body, { ...SETTINGS, phone_number_id: '' });
  assert.equal(event!.getRecipientForeignId(), '109876543210987');
  assert.deepEqual(event!.getChannelData(), { phone_number_id: '109876543210987', display_phone_number: '15550101999' });
});

test('a delivery mixing statuses and another field with messages keeps only the messages', () => {
  const body = oneMessage({ type: 'text', text: { body: 'kept' } }) as { entry: Array<{ changes: unknown[] }> };
  body.entry[0]!.changes.unshift(
    { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: PHONE_NUMBER_ID }, statuses: [{ id: 'wamid.OUT', status: 'read' }] } },
    { field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } },
  );
  assert.deepEqual(decode(body).map((event) => (event as MessageInboundEvent).getText()), ['kept']);
});

const timestamps: Array<[string, unknown]> = [
  ['absent', undefined],
  ['not digits', '2025-06-08T20:59:43Z'],
  ['zero', '0'],
  ['negative', -5],
  ['beyond the Date range', '9000000000000'],
  ['an object', { seconds: 1 }],
];

for (const [name, timestamp] of timestamps) {
  test(`dates a message whose timestamp is ${name} at the current time`, () => {
    const before = Date.now();
    const [event] = decode(oneMessage({ type: 'text', text: { body: 'hi' }, timestamp }));
    const at = event!.getOccurredAt().getTime();
    assert.ok(at >= before && at <= Date.now(), `occurredAt ${at} is not now`);
  });
}

test('reads a numeric timestamp as Unix seconds too', () => {
  const [event] = decode(oneMessage({ type: 'text', text: { body: 'hi' }, timestamp: 1749416383 }));
  assert.equal(event!.getOccurredAt().getTime(), 1749416383000);
});

const rejectedBodies: Array<[string, unknown, RegExp]> = [
  ['the body is not JSON', undefined, /./],
  ['the body is not an object', 'hello', /./],
  ['the object is another Graph product', { object: 'page', entry: [] }, /^object:/],
  ['entry is absent', { object: 'whatsapp_business_account' }, /^entry:/],
  ['entry is not an array', { object: 'whatsapp_business_account', entry: {} }, /^entry:/],
  ['an entry has no changes', { object: 'whatsapp_business_account', entry: [{ id: '1' }] }, /^entry\.0\.changes:/],
  ['a messages change has no metadata', { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { messages: [] } }] }] }, /^entry\.0\.changes\.0\.value\.metadata:/],
  ['a message has no id', oneMessage({ id: undefined, type: 'text', text: { body: 'hi' } }), /^entry\.0\.changes\.0\.value\.messages\.0\.id:/],
  ['a text body is not a string', oneMessage({ type: 'text', text: { body: 42 } }), /messages\.0\.text\.body:/],
];

for (const [name, body, message] of rejectedBodies) {
  test(`rejects the payload with PayloadRejectedError when ${name}`, () => {
    const request = { ...postRequest({}), body };
    assert.throws(() => channel.decode(request, createSource()), (error: Error & { code?: string }) => {
      assert.equal(error.name, 'PayloadRejectedError');
      assert.equal(error.code, 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED');
      assert.match(error.message, message);
      return true;
    });
  });
}

test('accepts an empty entry list (nothing to decode)', () => {
  assert.deepEqual(decode({ object: 'whatsapp_business_account', entry: [] }), []);
});
