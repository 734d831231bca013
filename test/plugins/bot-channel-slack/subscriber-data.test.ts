import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rebuildInboundEvent, subscriberCreateDtoSchema, type ChannelInboundEvent } from '@bot-ai/api';
import nock from 'nock';
import { BOT_TOKEN, createChannel, createSource, decodeDelivery, jsonRequest, readCheckManifest, SLACK_API } from './slack-fixtures.ts';
import { useNockedEgress } from '../../support/nocked-egress.ts';

useNockedEgress();

const source = createSource();

/** An event rebuilt from plain data, as the host hands it over. */
function rebuilt(event: ChannelInboundEvent): ChannelInboundEvent {
  return rebuildInboundEvent(structuredClone(event.toPlain())).bindSource(source);
}

function dmEvent(): ChannelInboundEvent {
  return rebuilt(decodeDelivery('message-im-text.json')[0]!);
}

/** The users.info route of fixtures/channel-check.json: Slack's documented answer. */
function usersInfoAnswer(): Record<string, unknown> {
  const manifest = readCheckManifest() as unknown as { platform: { routes: Array<{ path: string; body: Record<string, unknown> }> } };
  return structuredClone(manifest.platform.routes.find((route) => route.path.includes('users'))!.body);
}

function slackAnswersUsersInfo(status: number, reply: unknown) {
  const received: { url?: string; headers?: Headers } = {};
  const scope = nock(SLACK_API)
    .get('/api/users.info')
    .query(true)
    .reply(async (request: Request) => {
      received.url = request.url;
      received.headers = request.headers;
      return [status, reply];
    });
  return { scope, received };
}

test("builds the subscriber from users.info: names, 192 px avatar, locale, language and the time zone in hours", async () => {
  const { scope, received } = slackAnswersUsersInfo(200, usersInfoAnswer());
  const dto = await createChannel().getSubscriberData(dmEvent());
  assert.ok(scope.isDone());
  assert.equal(received.url, 'https://slack.com/api/users.info?user=U2147483697&include_locale=true');
  assert.equal(received.headers?.get('authorization'), `Bearer ${BOT_TOKEN}`);
  assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
  assert.partialDeepStrictEqual(dto, { ...readCheckManifest().subscriber, source: 'source-1', labels: [], gender: null, country: null });
  assert.equal(dto.lastvisit.toISOString(), '2012-12-14T20:38:43.000Z');
});

test('splits the real name when the profile has no first name, and reads fractional time zones', async () => {
  const answer = usersInfoAnswer() as { user: { tz_offset: number; locale?: string; profile: Record<string, unknown> } };
  delete answer.user.profile.first_name;
  delete answer.user.profile.last_name;
  delete answer.user.profile.image_192;
  delete answer.user.locale;
  answer.user.profile.real_name = 'Ada  King Lovelace';
  answer.user.tz_offset = 19800;
  slackAnswersUsersInfo(200, answer);
  const dto = await createChannel().getSubscriberData(dmEvent());
  assert.partialDeepStrictEqual(dto, { firstName: 'Ada', lastName: 'King Lovelace', avatar: null, locale: '', language: '', timezone: 5.5 });
});

const failures: Array<[string, () => void]> = [
  ['answers HTTP 500', () => void slackAnswersUsersInfo(500, { error: 'oops' })],
  ['answers ok: false (user_not_found)', () => void slackAnswersUsersInfo(200, { ok: false, error: 'user_not_found' })],
  ['answers without a user', () => void slackAnswersUsersInfo(200, { ok: true })],
  ['answers something that is not JSON', () => void slackAnswersUsersInfo(200, 'Bad gateway')],
  ['cannot be reached', () => void nock(SLACK_API).get('/api/users.info').query(true).replyWithError('ECONNRESET')],
];

for (const [name, arrange] of failures) {
  test(`falls back to the event when users.info ${name}`, async () => {
    arrange();
    const dto = await createChannel().getSubscriberData(dmEvent());
    assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
    assert.partialDeepStrictEqual(dto, {
      foreignId: 'U2147483697',
      firstName: '',
      lastName: '',
      avatar: null,
      locale: '',
      timezone: 0,
      channel: { name: 'slack', team_id: 'T061EG9R6', channel_id: 'D024BE91L', api_app_id: 'A0MDYCDME' },
    });
  });
}

test("the fallback takes the name and avatar of the event's user_profile when Slack sent one", async () => {
  slackAnswersUsersInfo(500, {});
  const body = {
    type: 'event_callback',
    team_id: 'T061EG9R6',
    api_app_id: 'A0MDYCDME',
    event_id: 'Ev0PROFILE1',
    event: {
      type: 'message',
      channel: 'D024BE91L',
      channel_type: 'im',
      user: 'U2147483697',
      text: 'hi',
      ts: '1700000000.000100',
      user_profile: { avatar_hash: 'g1', image_72: 'https://secure.gravatar.com/avatar/g1-72.jpg', first_name: 'Ada', real_name: 'Ada Lovelace', display_name: 'ada', name: 'ada' },
    },
  };
  const [event] = createChannel().decode(jsonRequest(body), source);
  const dto = await createChannel().getSubscriberData(rebuilt(event!));
  assert.partialDeepStrictEqual(dto, { firstName: 'Ada', lastName: '', avatar: 'https://secure.gravatar.com/avatar/g1-72.jpg' });
});

test('the fallback works for a button click, which carries no profile', async () => {
  slackAnswersUsersInfo(503, {});
  const dto = await createChannel().getSubscriberData(rebuilt(decodeDelivery('block-actions-button.json')[0]!));
  assert.deepEqual(subscriberCreateDtoSchema.parse(dto), dto);
  assert.equal(dto.foreignId, 'U2147483697');
});

test('refuses an event without a sender, without asking Slack', async () => {
  const event = rebuildInboundEvent({ kind: 'message', channelName: 'slack', rawEvent: {}, channelAttributes: {}, occurredAt: new Date().toISOString(), eventId: 'x', message: { type: 'text', data: { text: 'hi' } } }).bindSource(source);
  await assert.rejects(createChannel().getSubscriberData(event), { code: 'SLACK_ERR_NO_SENDER' });
});
