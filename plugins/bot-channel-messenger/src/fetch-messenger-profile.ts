import { z } from '@bot-ai/api';
import { callMessengerGraph } from './call-messenger-graph.ts';
import type { MessengerSettings } from './messenger-settings.schema.ts';

/**
 * How long the profile lookup may take: a new subscriber waits for it.
 * @example await fetchMessengerProfile(settings, psid, MESSENGER_PROFILE_TIMEOUT_MS);
 */
export const MESSENGER_PROFILE_TIMEOUT_MS = 5_000;

/**
 * The fields asked of the User Profile API.
 * @example graphUrl(settings, psid, { fields: MESSENGER_PROFILE_FIELDS })
 */
export const MESSENGER_PROFILE_FIELDS = 'first_name,last_name,profile_pic,locale,timezone';

/**
 * What the User Profile API answers for a PSID. Each field is optional (locale and timezone need
 * extra permissions, and a person may hide their name), and one of a wrong type is dropped alone.
 * @example messengerProfileSchema.parse({ first_name: 'Ada', last_name: 'Lovelace', locale: 'en_GB', timezone: 0 })
 */
export const messengerProfileSchema = z.looseObject({
  first_name: z.string().optional().catch(undefined),
  last_name: z.string().optional().catch(undefined),
  profile_pic: z.url({ protocol: /^https?$/ }).optional().catch(undefined),
  locale: z.string().optional().catch(undefined),
  timezone: z.number().min(-24).max(24).optional().catch(undefined),
});
export type MessengerProfile = z.output<typeof messengerProfileSchema>;

/**
 * The person's profile: `GET {api_base_url}/{api_version}/{psid}?fields=…` with the Page token.
 * Throws what the call throws (`PlatformResponseError`, `ChannelError`); the caller falls back.
 * @example const profile = await fetchMessengerProfile(settings, '6723419087613458', 5_000); // { first_name: 'Ada', … }
 */
export async function fetchMessengerProfile(settings: MessengerSettings, psid: string, timeoutMs: number): Promise<MessengerProfile> {
  const answer = await callMessengerGraph(settings, { method: 'GET', path: encodeURIComponent(psid), query: { fields: MESSENGER_PROFILE_FIELDS }, timeoutMs });
  return messengerProfileSchema.parse(answer ?? {});
}
