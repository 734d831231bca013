import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installHostServices, rebuildInboundEvent, subscriberCreateDtoSchema, type ChannelInboundEvent } from '@bot-ai/api';
import { createChannel, createSource, postRequest, readDelivery, SETTINGS } from './whatsapp-fixtures.ts';

const channel = createChannel();
const source = createSource(SETTINGS);

/** Decodes a body, then rebuilds each event from plain data, as the host does across the worker boundary. */
function rebuiltEvents(body: unknown): ChannelInboundEvent[] {
  const events = channel.decode(postRequest(body), source) as ChannelInboundEvent[];
  return events.map((event) => rebuildInboundEvent(structuredClone(event.toPlain())).bindSource(source));
}

function withContacts(contacts: unknown[]): unknown {
  const body = structuredClone(readDelivery('text.json').request.body) as { entry: Array<{ changes: Array<{ value: { contacts?: unknown[] } }> }> };
  body.entry[0]!.changes[0]!.value.contacts = contacts;
  return body;
}

test('builds a valid subscriber from the WhatsApp profile name in the webhook, split into first and last name', () => {
  const [event] = rebuiltEvents(readDelivery('text.json').request.body);
  const dto = channel.getSubscriberData(event!);
  assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
  assert.partialDeepStrictEqual(dto, {
    foreignId: '16505551234',
    firstName: 'Sheena',
    lastName: 'Nelson',
    avatar: null,
    locale: '',
    language: '',
    channel: { name: 'whatsapp', phone_number_id: '106540352242922', display_phone_number: '15550783881' },
    source: 'source-1',
    labels: [],
  });
  assert.equal(new Date(dto.lastvisit).getTime(), 1749416383000);
});

test("each message of a batch gets its own sender's name", () => {
  const events = rebuiltEvents(readDelivery('batch.json').request.body);
  assert.deepEqual(
    events.map((event) => {
      const { firstName, lastName } = channel.getSubscriberData(event) as { firstName: string; lastName: string };
      return `${firstName}|${lastName}`;
    }),
    ['Sheena|Nelson', 'Omar|Haddad', 'Sheena|Nelson'],
  );
});

const names: Array<[string, unknown[], string, string]> = [
  ['a one-word name is a first name', [{ profile: { name: 'Sheena' }, wa_id: '16505551234' }], 'Sheena', ''],
  ['a three-word name keeps the rest as the last name', [{ profile: { name: '  Ana María  de la Cruz ' }, wa_id: '16505551234' }], 'Ana', 'María  de la Cruz'],
  ['no contact leaves the names empty', [], '', ''],
  ["another user's contact is not the sender's", [{ profile: { name: 'Omar Haddad' }, wa_id: '447700900123' }], '', ''],
  ['a contact without a profile leaves the names empty', [{ wa_id: '16505551234' }], '', ''],
];

for (const [name, contacts, firstName, lastName] of names) {
  test(name, () => {
    const [event] = rebuiltEvents(withContacts(contacts));
    const dto = channel.getSubscriberData(event!) as { firstName: string; lastName: string };
    assert.ok(subscriberCreateDtoSchema.safeParse(dto).success);
    assert.equal(dto.firstName, firstName);
    assert.equal(dto.lastName, lastName);
  });
}

test('makes no platform call: WhatsApp has no profile API, so it works with no network at all', () => {
  installHostServices(undefined); // any fetch would now fail with BOT_ERR_EGRESS_UNAVAILABLE
  const [event] = rebuiltEvents(readDelivery('text.json').request.body);
  const dto = channel.getSubscriberData(event!);
  assert.ok(!(dto instanceof Promise));
  assert.equal(dto.firstName, 'Sheena');
});

test('refuses to build a subscriber for an event without a sender', () => {
  const [event] = rebuiltEvents(readDelivery('text.json').request.body);
  const { senderForeignId: _sender, ...plain } = event!.toPlain();
  assert.throws(() => channel.getSubscriberData(rebuildInboundEvent(plain).bindSource(source)), { code: 'WHATSAPP_ERR_NO_SENDER' });
});
