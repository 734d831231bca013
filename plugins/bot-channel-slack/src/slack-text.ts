/**
 * Slack's text rules. In message text Slack reserves `&`, `<` and `>` (they start entities,
 * mentions and links), so it escapes them in what it sends and expects them escaped in what it
 * gets: `&amp;`, `&lt;`, `&gt;`, and nothing else.
 */

/**
 * Text written by a workflow as Slack must get it: `&`, `<` and `>` escaped, so `a < b` is shown
 * as written instead of being read as the start of a link. Formatting (`*bold*`) still works.
 * @example escapeSlackText('Tom & Jerry <3') // 'Tom &amp; Jerry &lt;3'
 */
export function escapeSlackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Text from Slack as the user typed it: the three escapes undone (`&amp;` last, so `&amp;lt;`
 * becomes `&lt;`, not `<`). Mentions and links keep Slack's `<@U…>` and `<https://…|label>` form.
 * @example unescapeSlackText('Tom &amp; Jerry &lt;3') // 'Tom & Jerry <3'
 */
export function unescapeSlackText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * The text without the mention of the bot it starts with (`<@U0LAN0Z89> hi` → `hi`), and
 * without the spaces, commas or colons after it. Without a known bot id, any leading user mention
 * goes: an `app_mention` starts with the bot's. Other mentions stay.
 * @example stripLeadingMention('<@U0LAN0Z89>: is it everything?', 'U0LAN0Z89') // 'is it everything?'
 */
export function stripLeadingMention(text: string, botUserId: string | undefined): string {
  const id = botUserId ? escapeRegExp(botUserId) : '[UW][A-Z0-9]+';
  return text.replace(new RegExp(`^\\s*<@${id}(?:\\|[^>]*)?>[\\s,:]*`), '');
}

/**
 * Whether `text` mentions the bot anywhere (`<@U0LAN0Z89>` or `<@U0LAN0Z89|name>`).
 * @example mentionsUser('hey <@U0LAN0Z89> look', 'U0LAN0Z89') // true
 */
export function mentionsUser(text: string, userId: string): boolean {
  return new RegExp(`<@${escapeRegExp(userId)}(?:\\|[^>]*)?>`).test(text);
}

/**
 * Escaped text cut into pieces of at most `max` characters, for blocks that hold less than a
 * message (a section's text: 3000). Never cuts inside an escape (`&amp;`) or a surrogate pair.
 * @example splitSlackText('a'.repeat(3001), 3000) // ['aaa…' (3000), 'a']
 */
export function splitSlackText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    const entityStart = rest.lastIndexOf('&', cut - 1);
    if (entityStart > 0 && cut - entityStart < 5 && rest.indexOf(';', entityStart) >= cut) cut = entityStart;
    if (isHighSurrogate(rest.charCodeAt(cut - 1))) cut -= 1;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
