import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installHostServices, rebuildInboundEvent, type ChannelInboundEvent, type StdOutgoingMessageEnvelope } from '@bot-ai/api';
import nock from 'nock';
import { createChannel, createSource, decodeDelivery, GRAPH, installDirectEgress, PHONE_NUMBER_ID, readManifest, SETTINGS } from './whatsapp-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

const SEND_PATH = `/v21.0/${PHONE_NUMBER_ID}/messages`;
const options = { idempotencyKey: 'out-1' };
const USER = '16505551234';

useNockedEgress();

/** The text message of text.json, decoded and bound to a source with `settings`. */
function incomingEvent(settings: Record<string, unknown> = SETTINGS): ChannelInboundEvent {
  return decodeDelivery('text.json', createSource(settings))[0]!;
}

/** Answers the next send with `status` and `reply`, keeping what it received. */
function graphAnswers(status: number, reply: unknown, headers: Record<string, string> = {}, origin = GRAPH, path = SEND_PATH) {
  const received: { body?: unknown; headers?: Headers } = {};
  const scope = nock(origin)
    .post(path)
    .reply(async (request: Request) => {
      received.headers = request.headers;
      received.body = JSON.parse(await request.text());
      return [status, reply, headers];
    });
  return { scope, received };
}

const sent = (id = 'wamid.OUT-1') => ({ messaging_product: 'whatsapp', contacts: [{ input: USER, wa_id: USER }], messages: [{ id }] });

/** Sends `envelope` and returns the JSON the Cloud API received, checking the mid. */
async function sendAndCapture(envelope: StdOutgoingMessageEnvelope): Promise<unknown> {
  const { scope, received } = graphAnswers(200, sent());
  assert.deepEqual(await createChannel().doSendMessage(incomingEvent(), envelope, options), { mid: 'wamid.OUT-1' });
  assert.ok(scope.isDone());
  return received.body;
}

const envelopeOf = (message: Record<string, unknown>) => ({ messaging_product: 'whatsapp', recipient_type: 'individual', to: USER, ...message });

test('posts a text message with the bearer token to /{version}/{phone_number_id}/messages and returns the wamid as mid', async () => {
  const { scope, received } = graphAnswers(200, sent('wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI'));
  const result = await createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options);
  assert.deepEqual(result, { mid: 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI' });
  assert.ok(scope.isDone());
  assert.deepEqual(received.body, { messaging_product: 'whatsapp', recipient_type: 'individual', to: USER, type: 'text', text: { body: 'Hello' } });
  assert.equal(received.headers?.get('authorization'), 'Bearer EAAtoken');
  assert.equal(received.headers?.get('content-type'), 'application/json');
});

test('sends up to 3 quick replies as interactive reply buttons', async () => {
  const body = await sendAndCapture({
    type: 'quickReply',
    data: { text: 'Pick one', quickReplies: [{ title: 'Yes', payload: 'YES' }, { title: 'No', payload: 'NO' }] },
  });
  assert.deepEqual(body, envelopeOf({
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: 'Pick one' },
      action: { buttons: [{ type: 'reply', reply: { id: 'YES', title: 'Yes' } }, { type: 'reply', reply: { id: 'NO', title: 'No' } }] },
    },
  }));
});

test('shortens a reply button title over 20 characters, keeping its payload whole', async () => {
  const body = (await sendAndCapture({
    type: 'quickReply',
    data: { text: 'Pick', quickReplies: [{ title: 'Opening hours on public holidays', payload: 'HOLIDAY_HOURS' }] },
  })) as { interactive: { action: { buttons: Array<{ reply: { id: string; title: string } }> } } };
  assert.deepEqual(body.interactive.action.buttons[0]!.reply, { id: 'HOLIDAY_HOURS', title: 'Opening hours on pu…' });
  assert.equal([...body.interactive.action.buttons[0]!.reply.title].length, 20);
});

test('sends 4 to 10 quick replies as a list, a long title shortened and written in full in the description', async () => {
  const quickReplies = [
    { title: 'Paris', payload: 'P' },
    { title: 'Lyon', payload: 'L' },
    { title: 'Marseille', payload: 'M' },
    { title: 'Saint-Rémy-de-Provence, Bouches-du-Rhône', payload: 'S' },
  ];
  const body = await sendAndCapture({ type: 'quickReply', data: { text: 'Which store?', quickReplies } });
  assert.deepEqual(body, envelopeOf({
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: 'Which store?' },
      action: {
        button: 'Options',
        sections: [
          {
            rows: [
              { id: 'P', title: 'Paris' },
              { id: 'L', title: 'Lyon' },
              { id: 'M', title: 'Marseille' },
              { id: 'S', title: 'Saint-Rémy-de-Provence,…', description: 'Saint-Rémy-de-Provence, Bouches-du-Rhône' },
            ],
          },
        ],
      },
    },
  }));
});

test('refuses more than 10 choices before calling the Cloud API', async () => {
  const { scope } = graphAnswers(200, sent());
  const quickReplies = Array.from({ length: 11 }, (_, index) => ({ title: `Option ${index}`, payload: `O${index}` }));
  await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'quickReply', data: { text: 'Pick', quickReplies } }, options), {
    code: 'WHATSAPP_ERR_TOO_MANY_CHOICES',
  });
  assert.equal(scope.isDone(), false);
});

test('shortens an interactive body over 1024 characters', async () => {
  const body = (await sendAndCapture({ type: 'quickReply', data: { text: 'x'.repeat(1100), quickReplies: [{ title: 'OK', payload: 'OK' }] } })) as {
    interactive: { body: { text: string } };
  };
  assert.equal(body.interactive.body.text, `${'x'.repeat(1023)}…`);
});

test('sends postback buttons as reply buttons', async () => {
  const body = await sendAndCapture({
    type: 'buttons',
    data: { text: 'Menu', buttons: [{ type: 'postback', title: 'Talk to us', payload: 'HUMAN' }] },
  });
  assert.deepEqual(body, envelopeOf({
    type: 'interactive',
    interactive: { type: 'button', body: { text: 'Menu' }, action: { buttons: [{ type: 'reply', reply: { id: 'HUMAN', title: 'Talk to us' } }] } },
  }));
});

test('sends a single URL button as a cta_url button', async () => {
  const body = await sendAndCapture({
    type: 'buttons',
    data: { text: 'Track your parcel', buttons: [{ type: 'url', title: 'Open tracking', url: 'https://shop.example/track/42' }] },
  });
  assert.deepEqual(body, envelopeOf({
    type: 'interactive',
    interactive: {
      type: 'cta_url',
      body: { text: 'Track your parcel' },
      action: { name: 'cta_url', parameters: { display_text: 'Open tracking', url: 'https://shop.example/track/42' } },
    },
  }));
});

test('writes the links into the text when URL buttons come with postbacks (WhatsApp cannot mix them)', async () => {
  const body = await sendAndCapture({
    type: 'buttons',
    data: {
      text: 'Your order',
      buttons: [
        { type: 'url', title: 'Invoice', url: 'https://shop.example/i/42' },
        { type: 'postback', title: 'Cancel it', payload: 'CANCEL' },
      ],
    },
  });
  assert.deepEqual(body, envelopeOf({
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: 'Your order\nInvoice: https://shop.example/i/42' },
      action: { buttons: [{ type: 'reply', reply: { id: 'CANCEL', title: 'Cancel it' } }] },
    },
  }));
});

test('sends several URL buttons alone as a text with the links', async () => {
  const body = await sendAndCapture({
    type: 'buttons',
    data: {
      text: 'Links',
      buttons: [
        { type: 'url', title: 'Site', url: 'https://shop.example/' },
        { type: 'url', title: 'Help', url: 'https://shop.example/help' },
      ],
    },
  });
  assert.deepEqual(body, envelopeOf({ type: 'text', text: { body: 'Links\nSite: https://shop.example/\nHelp: https://shop.example/help' } }));
});

const attachments: Array<{ name: string; envelope: StdOutgoingMessageEnvelope; message: Record<string, unknown> }> = [
  {
    name: 'an image with its caption',
    envelope: { type: 'attachment', data: { text: 'Our shop', attachment: { kind: 'image', url: 'https://host.test/download/a.jpg' } } },
    message: { type: 'image', image: { link: 'https://host.test/download/a.jpg', caption: 'Our shop' } },
  },
  {
    name: 'a video without text',
    envelope: { type: 'attachment', data: { attachment: { kind: 'video', url: 'https://host.test/download/v.mp4' } } },
    message: { type: 'video', video: { link: 'https://host.test/download/v.mp4' } },
  },
  {
    name: 'a file as a document with its name',
    envelope: { type: 'attachment', data: { text: 'Invoice', attachment: { kind: 'file', url: 'https://host.test/download/f', name: 'invoice.pdf' } } },
    message: { type: 'document', document: { link: 'https://host.test/download/f', caption: 'Invoice', filename: 'invoice.pdf' } },
  },
  {
    name: 'an audio file without text as audio',
    envelope: { type: 'attachment', data: { attachment: { kind: 'audio', url: 'https://host.test/download/a.ogg' } } },
    message: { type: 'audio', audio: { link: 'https://host.test/download/a.ogg' } },
  },
  {
    name: 'an audio file with text as a document, keeping the text (audio has no caption)',
    envelope: { type: 'attachment', data: { text: 'Listen', attachment: { kind: 'audio', url: 'https://host.test/download/a.ogg', name: 'a.ogg' } } },
    message: { type: 'document', document: { link: 'https://host.test/download/a.ogg', caption: 'Listen', filename: 'a.ogg' } },
  },
];

for (const { name, envelope, message } of attachments) {
  test(`sends ${name} by link`, async () => {
    assert.deepEqual(await sendAndCapture(envelope), envelopeOf(message));
  });
}

const unsupported: StdOutgoingMessageEnvelope[] = [
  { type: 'list', data: { elements: [{ title: 'A' }] } },
  { type: 'carousel', data: { elements: [{ title: 'A' }] } },
];

for (const envelope of unsupported) {
  test(`throws UnsupportedOutgoingFormatError for the ${envelope.type} type without calling the Cloud API`, async () => {
    const { scope } = graphAnswers(200, sent());
    await assert.rejects(createChannel().doSendMessage(incomingEvent(), envelope, options), {
      name: 'UnsupportedOutgoingFormatError',
      code: 'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT',
    });
    assert.equal(scope.isDone(), false);
  });
}

test('sends to the api_base_url and api_version of the source, ignoring a trailing slash', async () => {
  const { scope } = graphAnswers(200, sent('wamid.X'), {}, 'http://graph.test:8080', `/proxy/v22.0/${PHONE_NUMBER_ID}/messages`);
  const event = incomingEvent({ ...SETTINGS, api_base_url: 'http://graph.test:8080/proxy/', api_version: 'v22.0' });
  assert.deepEqual(await createChannel().doSendMessage(event, { type: 'text', data: { text: 'x' } }, options), { mid: 'wamid.X' });
  assert.ok(scope.isDone());
});

test('answers from the number the message was sent to when the source names no phone_number_id', async () => {
  const { scope } = graphAnswers(200, sent());
  const event = incomingEvent({ ...SETTINGS, phone_number_id: '' });
  await createChannel().doSendMessage(event, { type: 'text', data: { text: 'x' } }, options);
  assert.ok(scope.isDone());
});

const retryDelays: Array<{ name: string; status: number; headers?: Record<string, string>; body: unknown; retryAfterMs: number | undefined }> = [
  { name: 'a 429 with Retry-After: 7', status: 429, headers: { 'retry-after': '7' }, body: { error: { code: 130429, message: '(#130429) Rate limit hit' } }, retryAfterMs: 7_000 },
  { name: 'a 429 throughput error (130429) without Retry-After', status: 429, body: { error: { code: 130429, message: '(#130429) Rate limit hit' } }, retryAfterMs: 1_000 },
  {
    name: 'a 400 pair-rate error (131056)',
    status: 400,
    body: { error: { message: '(#131056) (Business Account, Consumer Account) pair rate limit hit', type: 'OAuthException', code: 131056, fbtrace_id: 'A1' } },
    retryAfterMs: 6_000,
  },
  { name: 'a pair-rate error whose code is a string', status: 429, body: { error: { code: '131056' } }, retryAfterMs: 6_000 },
  { name: 'a 429 with neither header nor known code', status: 429, body: { error: { code: 4, message: 'Application request limit reached' } }, retryAfterMs: undefined },
  { name: 'a 400 invalid parameter (100)', status: 400, body: { error: { code: 100, message: 'Invalid parameter' } }, retryAfterMs: undefined },
];

for (const { name, status, headers, body, retryAfterMs } of retryDelays) {
  test(`${name} → PlatformResponseError ${status} with retryAfterMs ${retryAfterMs}`, async () => {
    graphAnswers(status, body, headers);
    const sending = createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options);
    await assert.rejects(sending, (error: Error & { code?: string; status?: number; retryAfterMs?: number }) => {
      assert.equal(error.name, 'PlatformResponseError');
      assert.equal(error.code, 'BOT_ERR_CHANNEL_PLATFORM_STATUS');
      assert.equal(error.status, status);
      assert.equal(error.retryAfterMs, retryAfterMs);
      return true;
    });
  });
}

test("the manifest's rate-limited answer carries the wait the author kit expects", async () => {
  const { rateLimited } = readManifest().platform;
  graphAnswers(rateLimited.status, rateLimited.body, rateLimited.headers);
  await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options), {
    status: 429,
    retryAfterMs: rateLimited.retryAfterMs,
  });
});

for (const status of [500, 503]) {
  test(`throws PlatformResponseError naming HTTP ${status} when the Cloud API fails`, async () => {
    graphAnswers(status, { error: { code: 2, message: 'Service temporarily unavailable' } });
    await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options), {
      name: 'PlatformResponseError',
      status,
      message: new RegExp(`HTTP ${status}`),
    });
  });
}

test('does not pace sends to one chat itself: the pair rate is a retry-later error, not a 6 s wait in the send', async () => {
  const scope = nock(GRAPH).post(SEND_PATH).times(3).reply(200, sent());
  const channel = createChannel();
  const started = Date.now();
  await Promise.all([1, 2, 3].map((n) => channel.doSendMessage(incomingEvent(), { type: 'text', data: { text: `m${n}` } }, options)));
  assert.ok(scope.isDone());
  assert.ok(Date.now() - started < 1_000, 'three sends to one chat went out at once');
});

test('throws WHATSAPP_ERR_NO_MESSAGE_ID when a 2xx answer has no message id', async () => {
  graphAnswers(200, { messaging_product: 'whatsapp', messages: [] });
  await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options), {
    code: 'WHATSAPP_ERR_NO_MESSAGE_ID',
  });
});

test('sends through the SDK fetch, so without a host to perform it the send fails as unreachable with BOT_ERR_EGRESS_UNAVAILABLE', async () => {
  installHostServices(undefined);
  try {
    await assert.rejects(createChannel().doSendMessage(incomingEvent(), { type: 'text', data: { text: 'Hello' } }, options), (error: Error & { code?: string; cause?: { code?: string } }) => {
      assert.equal(error.code, 'WHATSAPP_ERR_UNREACHABLE');
      assert.equal(error.cause?.code, 'BOT_ERR_EGRESS_UNAVAILABLE');
      return true;
    });
  } finally {
    installDirectEgress();
  }
});

test('refuses to reply to an event without a sender', async () => {
  const { senderForeignId: _sender, ...plain } = incomingEvent().toPlain();
  const withoutSender = rebuildInboundEvent(plain).bindSource(createSource());
  await assert.rejects(createChannel().doSendMessage(withoutSender, { type: 'text', data: { text: 'x' } }, options), { code: 'WHATSAPP_ERR_NO_RECIPIENT' });
});
