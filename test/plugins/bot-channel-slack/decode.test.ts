import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageInboundEvent, type ChannelInboundEvent, type WebhookRequest } from '@bot-ai/api';
import { decodeSlackRequest, SLACK_NOISE_RULES, type SlackDropRule } from 'bot-channel-slack';
import {
  createChannel,
  createSource,
  decodeDelivery,
  deliveryFiles,
  deliveryRequest,
  interactionRequest,
  jsonRequest,
  newResponse,
  readDelivery,
  slackRequest,
} from './slack-fixtures.ts';

const channel = createChannel();

function decode(request: WebhookRequest): ChannelInboundEvent[] {
  return channel.decode(request, createSource()) as ChannelInboundEvent[];
}

// ---------------------------------------------------------------------------------------------
// The recorded deliveries (fixtures/deliveries/*.json), as the author kit runs them.

for (const file of deliveryFiles()) {
  const delivery = readDelivery(file);
  test(`${file}: ${delivery.description}`, () => {
    const request = deliveryRequest(delivery);
    const status = delivery.expect.status ?? 200;
    if (status === 401) {
      assert.throws(() => createChannel().verifySignature(request, newResponse(), createSource()), { name: 'SignatureRejectedError' });
      return;
    }
    const res = newResponse();
    createChannel().verifySignature(request, res, createSource());
    if (status === 400) {
      assert.throws(() => decode(request), { code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' });
      return;
    }
    const events = decode(request).map((event) => event.toPlain() as unknown as Record<string, unknown>);
    const expected = delivery.expect.events ?? [];
    assert.equal(events.length, expected.length);
    expected.forEach((want, index) => {
      for (const [key, value] of Object.entries(want)) assert.deepEqual(events[index]![key], value, `event ${index} ${key}`);
    });
    if (delivery.expect.responseBodyIncludes) assert.ok(res.body?.includes(delivery.expect.responseBodyIncludes));
  });
}

/** Which rule drops each noise delivery: each rule is named, and each has its recording. */
const NOISE: Record<string, SlackDropRule> = {
  'url-verification.json': 'url-verification',
  'noise-app-rate-limited.json': 'other-envelope-type',
  'noise-reaction-added.json': 'other-event-type',
  'noise-own-message.json': 'own-message',
  'noise-bot-message.json': 'bot-message',
  'noise-message-changed.json': 'edit-or-system-subtype',
  'noise-message-deleted.json': 'edit-or-system-subtype',
  'noise-channel-join.json': 'edit-or-system-subtype',
  'noise-no-sender.json': 'no-sender',
  'noise-mention-echo.json': 'mention-echo',
  'noise-bare-mention.json': 'empty-message',
  'noise-slash-command.json': 'slash-command',
  'noise-ssl-check.json': 'ssl-check',
  'noise-view-submission.json': 'other-interaction-type',
  'noise-link-button.json': 'no-usable-action',
};

for (const [file, rule] of Object.entries(NOISE)) {
  test(`${file} is dropped by the rule ${rule}`, () => {
    assert.deepEqual(decodeSlackRequest(deliveryRequest(readDelivery(file))), { events: [], dropped: rule });
  });
}

test('every message noise rule has a recorded delivery, and every delivery that decodes to nothing is named above', () => {
  const named = new Set(Object.values(NOISE));
  for (const rule of SLACK_NOISE_RULES) assert.ok(named.has(rule.name), `${rule.name} has a fixture`);
  for (const file of deliveryFiles()) {
    const { expect } = readDelivery(file);
    if ((expect.status ?? 200) === 200 && expect.events?.length === 0) assert.ok(file in NOISE, `${file} names its rule`);
  }
});

test('a retried delivery (X-Slack-Retry-Num) decodes to the same event id as the first, so the host stores it once', () => {
  for (const file of deliveryFiles()) {
    const original = readDelivery(file).sameEventsAs;
    if (original === undefined) continue;
    const ids = (name: string) => decodeDelivery(name).map((event) => event.getEventId());
    assert.deepEqual(ids(file), ids(original));
    assert.equal(ids(file).length, 1);
  }
});

test('Slack sends one event per request: each delivery decodes to at most one event', () => {
  for (const file of deliveryFiles()) if ((readDelivery(file).expect.status ?? 200) === 200) assert.ok(decodeDelivery(file).length <= 1, file);
});

// ---------------------------------------------------------------------------------------------
// event_callback

const TEAM = 'T061EG9R6';
const APP = 'A0MDYCDME';
const BOT = 'U0LAN0Z89';

function callback(event: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    token: 'ZZZZZZWSxiZZZ2yIvs3peJ',
    team_id: TEAM,
    api_app_id: APP,
    type: 'event_callback',
    event_id: 'Ev0TEST0001',
    event_time: 1700000000,
    authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: BOT, is_bot: true }],
    event: { type: 'message', channel: 'D024BE91L', channel_type: 'im', user: 'U2147483697', text: 'hi', ts: '1700000000.000100', ...event },
    ...overrides,
  };
}

function decodeOne(body: Record<string, unknown>): MessageInboundEvent {
  const events = decode(jsonRequest(body));
  assert.equal(events.length, 1);
  assert.ok(events[0] instanceof MessageInboundEvent);
  return events[0];
}

test('builds the event context of a direct message: ids, time, channel attributes', () => {
  const event = decodeOne(callback({ ts: '1355517523.000005' }));
  assert.equal(event.getChannelName(), 'slack');
  assert.equal(event.getEventId(), 'Ev0TEST0001');
  assert.equal(event.getSenderForeignId(), 'U2147483697');
  assert.equal(event.getRecipientForeignId(), BOT);
  assert.equal(event.getOccurredAt().toISOString(), '2012-12-14T20:38:43.000Z');
  assert.deepEqual(event.getChannelData(), { team_id: TEAM, channel_id: 'D024BE91L', api_app_id: APP });
});

test('dates an event without a readable ts at its event_time, else now', () => {
  assert.equal(decodeOne(callback({ ts: 'soon' })).getOccurredAt().toISOString(), '2023-11-14T22:13:20.000Z');
  assert.equal(decodeOne(callback({ ts: undefined }, { event_time: undefined })).getOccurredAt().getTime(), 1_700_000_000_000);
});

test('keeps the body as the raw event without the verification token', () => {
  const raw = decodeOne(callback({})).getRawEvent<Record<string, unknown>>();
  assert.equal('token' in raw, false);
  assert.equal(raw.event_id, 'Ev0TEST0001');
  assert.equal((raw.event as { text: string }).text, 'hi');
});

test('unescapes &lt; &gt; &amp; once, in that order', () => {
  assert.deepEqual(decodeOne(callback({ text: 'a &lt;b&gt; &amp;lt; c' })).getMessage(), { type: 'text', data: { text: 'a <b> &lt; c' } });
});

test("takes the bot's leading mention off a direct message too, but leaves other mentions", () => {
  assert.equal(decodeOne(callback({ text: `<@${BOT}>, hello <@U061F7AUR>` })).getText(), 'hello <@U061F7AUR>');
  assert.equal(decodeOne(callback({ text: '<@U061F7AUR> said hi' })).getText(), '<@U061F7AUR> said hi');
});

test('without authorizations, an app_mention loses its leading mention and a DM keeps its text', () => {
  const mention = callback({ type: 'app_mention', channel: 'C123ABC456', channel_type: undefined, text: '<@U0LAN0Z89|bot> status?' }, { authorizations: undefined });
  const decoded = decodeOne(mention);
  assert.equal(decoded.getText(), 'status?');
  assert.equal(decoded.getRecipientForeignId(), undefined);
  assert.equal(decodeOne(callback({ text: '<@U061F7AUR> said hi' }, { authorizations: undefined })).getText(), '<@U061F7AUR> said hi');
});

test("drops the app's own message by its app id even without the bot's user id", () => {
  const body = callback({ user: 'U0SOMEONE', app_id: APP }, { authorizations: [] });
  assert.deepEqual(decodeSlackRequest(jsonRequest(body)), { events: [], dropped: 'own-message' });
});

test('decodes user subtypes: a thread broadcast and a /me message are messages', () => {
  assert.equal(decodeOne(callback({ subtype: 'thread_broadcast', thread_ts: '1700000000.000001' })).getText(), 'hi');
  assert.equal(decodeOne(callback({ subtype: 'me_message' })).getText(), 'hi');
});

test('a mention in a DM is not a mention echo: DMs have no app_mention twin', () => {
  assert.equal(decodeOne(callback({ text: `hey <@${BOT}> look` })).getText(), `hey <@${BOT}> look`);
});

test('a file-only message is an attachment without text; unreadable and malformed files are skipped', () => {
  const files = [
    { id: 'F0000TOMB', mode: 'tombstone' },
    { id: 'F0000LIMIT', mode: 'hidden_by_limit' },
    { name: 'no id' },
    'not a file',
    { id: 'F0VOICE01', name: 'audio_message.m4a', mimetype: 'audio/mp4', url_private_download: 'https://files.slack.com/files-pri/T-F/download/a.m4a' },
    { id: 'F0CLIP001', title: 'clip', mimetype: 'video/quicktime', file_access: 'check_file_info' },
    { id: 'F0BLOB001' },
  ];
  assert.deepEqual(decodeOne(callback({ subtype: 'file_share', text: '', files })).getMessage(), {
    type: 'attachment',
    data: {
      attachments: [
        { kind: 'audio', platformId: 'F0VOICE01', name: 'audio_message.m4a', mimeType: 'audio/mp4' },
        { kind: 'video', platformId: 'F0CLIP001', name: 'clip', mimeType: 'video/quicktime' },
        { kind: 'file', platformId: 'F0BLOB001' },
      ],
    },
  });
});

test('a message whose only file is unreadable and has no text is dropped as empty', () => {
  const body = callback({ subtype: 'file_share', text: '', files: [{ id: 'F0000TOMB', mode: 'tombstone' }] });
  assert.deepEqual(decodeSlackRequest(jsonRequest(body)), { events: [], dropped: 'empty-message' });
});

test('never puts a file URL in the event message', () => {
  const message = decodeDelivery('message-im-file-share.json')[0] as MessageInboundEvent;
  assert.doesNotMatch(JSON.stringify(message.getMessage()), /https?:/);
});

// ---------------------------------------------------------------------------------------------
// Interactivity

function click(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: { id: 'U2147483697', username: 'ada', team_id: TEAM },
    api_app_id: APP,
    token: '9s8d9as89d8as9d8as989',
    trigger_id: '12321423423.333649436676.d8c1bb837935619ccad0f624c448ffb3',
    team: { id: TEAM, domain: 'example' },
    container: { type: 'message', message_ts: '1548261231.000200', channel_id: 'D024BE91L' },
    channel: { id: 'D024BE91L', name: 'directmessage' },
    response_url: 'https://hooks.slack.com/actions/T061EG9R6/1232321423432/D09sSasdasdAS9091209',
    actions: [{ type: 'button', action_id: 'button_0', text: { type: 'plain_text', text: 'Yes' }, value: 'YES', action_ts: '1548426417.840180' }],
    ...overrides,
  };
}

test('decodes a button click from the raw form even when the host gives req.body as an object of fields', () => {
  const request = interactionRequest(click(), { body: { payload: '{"type":"something else"}' } });
  const [event] = decode(request) as MessageInboundEvent[];
  assert.deepEqual(event!.getMessage(), { type: 'quickReply', data: { text: 'Yes', payload: 'YES' } });
  assert.equal(event!.getEventId(), 'block_actions:12321423423.333649436676.d8c1bb837935619ccad0f624c448ffb3');
  assert.equal(event!.getOccurredAt().toISOString(), '2019-01-25T14:26:57.840Z');
});

test('keeps the interaction as the raw event without its token and response_url', () => {
  const [event] = decode(interactionRequest(click()));
  const raw = event!.getRawEvent<Record<string, unknown>>();
  assert.equal('token' in raw, false);
  assert.equal('response_url' in raw, false);
  assert.doesNotMatch(JSON.stringify(raw), /hooks\.slack\.com/);
});

test('a click in a thread answers in that thread', () => {
  const [event] = decode(interactionRequest(click({ container: { type: 'message', channel_id: 'C123ABC456', thread_ts: '1548261000.000100' }, channel: { id: 'C123ABC456' } })));
  assert.deepEqual(event!.getChannelData(), { team_id: TEAM, channel_id: 'C123ABC456', api_app_id: APP, thread_ts: '1548261000.000100' });
});

test("a click without a channel (App Home) answers in the user's DM with the app", () => {
  const [event] = decode(interactionRequest(click({ channel: undefined, container: { type: 'view', view_id: 'V0PKB1ZFV' }, team: null })));
  assert.deepEqual(event!.getChannelData(), { team_id: TEAM, channel_id: 'U2147483697', api_app_id: APP });
});

test("a button without text is a quick reply whose text is its value", () => {
  const [event] = decode(interactionRequest(click({ actions: [{ type: 'button', action_id: 'a', value: 'GO' }] })));
  assert.deepEqual((event as MessageInboundEvent).getMessage(), { type: 'quickReply', data: { text: 'GO', payload: 'GO' } });
});

test('a link button that also has a value is still a link click: dropped', () => {
  const request = interactionRequest(click({ actions: [{ type: 'button', action_id: 'a', value: 'X', url: 'https://example.com', text: { text: 'Open' } }] }));
  assert.deepEqual(decodeSlackRequest(request), { events: [], dropped: 'no-usable-action' });
});

test("Slack's certificate check of a slash command (ssl_check) is dropped by name", () => {
  assert.deepEqual(decodeSlackRequest(slackRequest('ssl_check=1&token=xyzz0WbapA4vBCDEFasx0q6G')), { events: [], dropped: 'ssl-check' });
});

test('an Events API body of a type it does not know is skipped, not refused', () => {
  assert.deepEqual(decodeSlackRequest(jsonRequest({ type: 'something_new', team_id: TEAM })), { events: [], dropped: 'other-envelope-type' });
});

test('an event of another type is skipped without reading its fields (user may be an object there)', () => {
  const body = callback({ type: 'team_join', user: { id: 'U0NEW', name: 'new' }, text: 42 });
  assert.deepEqual(decodeSlackRequest(jsonRequest(body)), { events: [], dropped: 'other-event-type' });
});

// ---------------------------------------------------------------------------------------------
// Bodies that are not Slack's

const rejected: Array<[string, () => WebhookRequest]> = [
  ['the body is not JSON', () => slackRequest('hello', { contentType: 'text/plain' })],
  ['the JSON body is an array', () => jsonRequest([{ type: 'event_callback' }])],
  ['the JSON body has no type', () => jsonRequest({ event: { type: 'message' } })],
  ['an event_callback has no event_id', () => jsonRequest(callback({}, { event_id: undefined }))],
  ['an event_callback has no event', () => jsonRequest(callback({}, { event: undefined }))],
  ['the event has no type', () => jsonRequest(callback({ type: undefined }))],
  ['a message text is not a string', () => jsonRequest(callback({ text: 42 }))],
  ['the form payload is not JSON', () => slackRequest('payload=%7Bnot-json')],
  ['the interaction has no type', () => interactionRequest({ user: { id: 'U1' } })],
  ['a block_actions has no user', () => interactionRequest(click({ user: undefined }))],
  ['a block_actions has no trigger_id', () => interactionRequest(click({ trigger_id: undefined }))],
  ['a block_actions has no actions', () => interactionRequest(click({ actions: undefined }))],
  ['a form has none of the fields Slack sends', () => slackRequest('hello=world')],
];

for (const [name, request] of rejected) {
  test(`rejects the request with PayloadRejectedError when ${name}`, () => {
    assert.throws(() => decode(request()), { name: 'PayloadRejectedError', code: 'BOT_ERR_CHANNEL_PAYLOAD_REJECTED' });
  });
}
