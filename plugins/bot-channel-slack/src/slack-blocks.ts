import type { Button } from '@bot-ai/api';
import { splitSlackText } from './slack-text.ts';

/*
 * The Block Kit pieces this channel sends, with Slack's limits
 * (api.slack.com/reference/block-kit): a section's text up to 3000 characters, a button's text
 * up to 75, up to 25 elements in an actions block, an image's alt text up to 2000.
 */

/** A section's mrkdwn text holds at most this much. */
export const SECTION_TEXT_MAX = 3000;
const BUTTON_TEXT_MAX = 75;
const ACTIONS_MAX_ELEMENTS = 25;
const ALT_TEXT_MAX = 2000;

export interface SlackTextObject {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
}

export interface SlackSectionBlock {
  type: 'section';
  text: SlackTextObject;
}

export interface SlackButtonElement {
  type: 'button';
  action_id: string;
  text: SlackTextObject;
  value?: string;
  url?: string;
}

export interface SlackActionsBlock {
  type: 'actions';
  elements: SlackButtonElement[];
}

export interface SlackImageBlock {
  type: 'image';
  image_url: string;
  alt_text: string;
}

/** A block of a `chat.postMessage` request. */
export type SlackBlock = SlackSectionBlock | SlackActionsBlock | SlackImageBlock;

/**
 * Sections showing `escapedText` (already escaped for Slack), one per 3000 characters; none for
 * an empty text (Slack refuses an empty section).
 * @example sectionBlocks('Pick one') // [{ type: 'section', text: { type: 'mrkdwn', text: 'Pick one' } }]
 */
export function sectionBlocks(escapedText: string): SlackSectionBlock[] {
  return splitSlackText(escapedText, SECTION_TEXT_MAX).map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } }));
}

/**
 * Buttons in actions blocks of at most 25. A postback button returns its `payload` as the
 * button's `value` (decoded as a quick reply); a URL button opens its link. Each `action_id` is
 * unique in the message (Slack refuses repeats), and texts longer than 75 characters are cut.
 * @example actionsBlocks([{ type: 'postback', title: 'Yes', payload: 'YES' }])
 */
export function actionsBlocks(buttons: readonly Button[]): SlackActionsBlock[] {
  const elements = buttons.map((button, index): SlackButtonElement => {
    const base = { type: 'button' as const, action_id: `button_${index}`, text: plainText(button.title, BUTTON_TEXT_MAX) };
    return button.type === 'url' ? { ...base, url: button.url } : { ...base, value: button.payload };
  });
  const blocks: SlackActionsBlock[] = [];
  for (let start = 0; start < elements.length; start += ACTIONS_MAX_ELEMENTS) {
    blocks.push({ type: 'actions', elements: elements.slice(start, start + ACTIONS_MAX_ELEMENTS) });
  }
  return blocks;
}

/**
 * An image Slack downloads from `url` (a public URL) and shows, described by `altText`.
 * @example imageBlock('https://bot.example/files/cat.png', 'cat.png')
 */
export function imageBlock(url: string, altText: string): SlackImageBlock {
  return { type: 'image', image_url: url, alt_text: truncate(altText, ALT_TEXT_MAX) };
}

function plainText(text: string, max: number): SlackTextObject {
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

/** At most `max` characters (code points), an ellipsis marking a cut. */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
