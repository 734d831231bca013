import { z } from '@bot-ai/api';
import { callSlackApi } from './call-slack-api.ts';
import { slackMessageEventSchema } from './slack-payload.schema.ts';

/** What a subscriber gets from Slack about its person; empty or neutral where Slack says nothing. */
export interface SlackProfile {
  firstName: string;
  lastName: string;
  avatar: string | null;
  /** Slack's locale, e.g. `en-US`. */
  locale: string;
  /** Hours from UTC (may be fractional: India is 5.5). */
  timezone: number;
}

const optionalText = z.string().nullish().catch(undefined);

const usersInfoSchema = z.looseObject({
  user: z.looseObject({
    real_name: optionalText,
    locale: optionalText,
    tz_offset: z.number().nullish().catch(undefined),
    profile: z
      .looseObject({ first_name: optionalText, last_name: optionalText, real_name: optionalText, image_192: optionalText })
      .nullish()
      .catch(undefined),
  }),
});

/** A profile lookup. */
export interface SlackProfileRequest {
  apiBaseUrl: string;
  botToken: string;
  userId: string;
  timeoutMs: number;
}

/**
 * The profile of a Slack user from `users.info` (with `include_locale=true`): the first and
 * last name (else the real name split at its first space), the 192 px avatar, the locale and
 * the time zone offset in hours. Throws on any failure (the caller falls back).
 * @example const profile = await fetchSlackProfile({ apiBaseUrl, botToken, userId: 'U061F7AUR', timeoutMs: 10_000 });
 */
export async function fetchSlackProfile(request: SlackProfileRequest): Promise<SlackProfile> {
  const answer = await callSlackApi({
    apiBaseUrl: request.apiBaseUrl,
    botToken: request.botToken,
    method: 'users.info',
    query: { user: request.userId, include_locale: 'true' },
    timeoutMs: request.timeoutMs,
  });
  const { user } = usersInfoSchema.parse(answer);
  const [firstName, lastName] = names(user.profile?.first_name, user.profile?.last_name, user.profile?.real_name || user.real_name);
  return {
    firstName,
    lastName,
    avatar: user.profile?.image_192 || null,
    locale: user.locale ?? '',
    timezone: typeof user.tz_offset === 'number' && Number.isFinite(user.tz_offset) ? user.tz_offset / 3600 : 0,
  };
}

/**
 * What the event itself says of its sender: Slack adds a `user_profile` (first name, real name,
 * 72 px avatar) to some message events; interactions and most events carry none, and then the
 * profile is empty. The fallback when `users.info` fails.
 * @example profileFromEvent(event.getRawEvent()) // { firstName: 'Ada', lastName: '', avatar: 'https://…', locale: '', timezone: 0 }
 */
export function profileFromEvent(rawEvent: unknown): SlackProfile {
  const event = (rawEvent as { event?: unknown } | null | undefined)?.event;
  const profile = slackMessageEventSchema.safeParse(event).data?.user_profile;
  const [firstName, lastName] = names(profile?.first_name, undefined, profile?.real_name);
  return { firstName, lastName, avatar: profile?.image_72 || null, locale: '', timezone: 0 };
}

/** First and last name as Slack has them, else the real name split at its first space. */
function names(first: string | null | undefined, last: string | null | undefined, realName: string | null | undefined): [string, string] {
  if (first) return [first, last ?? ''];
  const real = (realName ?? '').trim();
  const space = real.indexOf(' ');
  return space < 0 ? [real, ''] : [real.slice(0, space), real.slice(space + 1).trim()];
}
