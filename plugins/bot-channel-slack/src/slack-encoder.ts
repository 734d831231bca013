import { ChannelOutboundMessageEncoder, type Button, type OutgoingEnvelopeOf } from '@bot-ai/api';
import { actionsBlocks, imageBlock, sectionBlocks, type SlackBlock } from './slack-blocks.ts';
import { escapeSlackText } from './slack-text.ts';

/**
 * The message part of a `chat.postMessage` request (the channel and thread are added at send).
 * With `blocks`, Slack shows the blocks and uses `text` for notifications and screen readers.
 */
export interface SlackOutgoingMessage {
  text: string;
  blocks?: SlackBlock[];
}

/** Image types an image block shows (Slack: png, jpg, jpeg, gif); others are sent as a link. */
const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif']);

/**
 * Encodes envelopes into Slack messages. Text is escaped (`&`, `<`, `>`) so it shows as written.
 * Quick replies and postback buttons become an `actions` block of buttons whose `value` is the
 * payload (a click comes back as a `quickReply`), URL buttons link buttons; an image an `image`
 * block, another file a link. Lists and carousels throw `UnsupportedOutgoingFormatError`.
 * @example new SlackEncoder().dispatchEnvelope({ type: 'text', data: { text: 'Hi' } }) // { text: 'Hi' }
 */
export class SlackEncoder extends ChannelOutboundMessageEncoder<SlackOutgoingMessage> {
  protected encodeText(envelope: OutgoingEnvelopeOf<'text'>): SlackOutgoingMessage {
    return { text: escapeSlackText(envelope.data.text) };
  }

  protected encodeQuickReply(envelope: OutgoingEnvelopeOf<'quickReply'>): SlackOutgoingMessage {
    const buttons = envelope.data.quickReplies.map(({ title, payload }): Button => ({ type: 'postback', title, payload }));
    return withButtons(envelope.data.text, buttons);
  }

  protected encodeButtons(envelope: OutgoingEnvelopeOf<'buttons'>): SlackOutgoingMessage {
    return withButtons(envelope.data.text, envelope.data.buttons);
  }

  protected encodeAttachment(envelope: OutgoingEnvelopeOf<'attachment'>): SlackOutgoingMessage {
    const { text: caption = '', attachment } = envelope.data;
    const { url, name, mimeType } = attachment;
    if (attachment.kind === 'image' && (mimeType === undefined || INLINE_IMAGE_TYPES.has(mimeType.toLowerCase()))) {
      const text = escapeSlackText(caption || name || 'Image');
      return { text, blocks: [...sectionBlocks(escapeSlackText(caption)), imageBlock(url, name || caption || 'Image')] };
    }
    // Slack's link form: <url|label>; a `|` in the URL would end it early.
    const link = `<${escapeSlackText(url).replaceAll('|', '%7C')}|${escapeSlackText(name || url)}>`;
    return { text: caption ? `${escapeSlackText(caption)}\n${link}` : link };
  }

  protected encodeList(envelope: OutgoingEnvelopeOf<'list'>): never {
    return this.unsupported(envelope);
  }

  protected encodeCarousel(envelope: OutgoingEnvelopeOf<'carousel'>): never {
    return this.unsupported(envelope);
  }
}

/** The text in sections (a notification still shows it), then the buttons. */
function withButtons(text: string, buttons: readonly Button[]): SlackOutgoingMessage {
  const escaped = escapeSlackText(text);
  return { text: escaped, blocks: [...sectionBlocks(escaped), ...actionsBlocks(buttons)] };
}
