import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subscriberCreateDtoSchema } from '@bot-ai/api';
import nock from 'nock';
import { ADA, createChannel, graphAnswers, PAGE_ID, PAGE_TOKEN, SEND_SETTINGS, storedEvent } from './messenger-test-kit.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

const PROFILE_PATH = `/v21.0/${ADA}?fields=first_name,last_name,profile_pic,locale,timezone`;
const AVATAR = `https://platform-lookaside.fbsbx.com/platform/profilepic/?psid=${ADA}&width=1024&ext=1766392000&hash=AbZx9Qw3`;

test("builds the subscriber from the User Profile API: names, avatar, locale, language and timezone", async () => {
  const { scope, received } = graphAnswers('GET', PROFILE_PATH, 200, { first_name: 'Ada', last_name: 'Lovelace', profile_pic: AVATAR, locale: 'en_GB', timezone: 5.5, id: ADA });
  const dto = await createChannel().getSubscriberData(storedEvent('text.json'));
  assert.ok(scope.isDone());
  assert.equal(received[0]!.headers.get('authorization'), `Bearer ${PAGE_TOKEN}`);
  assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
  assert.partialDeepStrictEqual(dto, {
    foreignId: ADA,
    firstName: 'Ada',
    lastName: 'Lovelace',
    avatar: AVATAR,
    locale: 'en_GB',
    language: 'en',
    timezone: 5.5,
    channel: { name: 'messenger', page_id: PAGE_ID },
    source: 'source-1',
    labels: [],
  });
  assert.equal(dto.lastvisit.toISOString(), new Date(1763800000000).toISOString());
});

test('keeps what a partial profile gives (locale and timezone need extra permissions) and drops a field of the wrong type', async () => {
  graphAnswers('GET', PROFILE_PATH, 200, { first_name: 'Ada', last_name: 42, profile_pic: 'not a url', id: ADA });
  const dto = await createChannel().getSubscriberData(storedEvent('text.json'));
  assert.ok(subscriberCreateDtoSchema.safeParse(dto).success);
  assert.partialDeepStrictEqual(dto, { firstName: 'Ada', lastName: '', avatar: null, locale: '', language: '', timezone: 0 });
});

const fallback = { foreignId: ADA, firstName: '', lastName: '', avatar: null, locale: '', timezone: 0, channel: { name: 'messenger', page_id: PAGE_ID } };
const failures: Array<{ name: string; arrange: () => void; settings?: Record<string, unknown> }> = [
  { name: 'the profile API answers 500', arrange: () => void graphAnswers('GET', PROFILE_PATH, 500, { error: { message: 'An unexpected error has occurred.', code: 2 } }) },
  { name: 'the profile API refuses the PSID (400)', arrange: () => void graphAnswers('GET', PROFILE_PATH, 400, { error: { message: 'No profile available for that id.', code: 100, error_subcode: 2018218 } }) },
  { name: 'the profile API is rate-limited', arrange: () => void graphAnswers('GET', PROFILE_PATH, 429, '', { headers: { 'retry-after': '30' } }) },
  { name: 'the Graph API cannot be reached', arrange: () => void nock('https://graph.facebook.com').get(PROFILE_PATH).replyWithError('getaddrinfo ENOTFOUND') },
  { name: 'the answer is not JSON', arrange: () => void graphAnswers('GET', PROFILE_PATH, 200, '<html>oops</html>') },
  { name: 'the source has no Page token (nothing is called)', arrange: () => {}, settings: { page_id: PAGE_ID } },
];
for (const { name, arrange, settings = SEND_SETTINGS } of failures) {
  test(`falls back to the PSID and empty names when ${name}`, async () => {
    arrange();
    const dto = await createChannel().getSubscriberData(storedEvent('text.json', settings));
    assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
    assert.partialDeepStrictEqual(dto, fallback);
  });
}

test('refuses to build a subscriber for an event without a PSID', async () => {
  const event = storedEvent('text.json');
  (event.context as { senderForeignId?: string }).senderForeignId = undefined;
  await assert.rejects(Promise.resolve().then(() => createChannel().getSubscriberData(event)), { code: 'MESSENGER_ERR_NO_SENDER' });
});
