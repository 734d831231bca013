import type { ChannelSource, InboundAttachment, InboundAttachmentRef, PlainInboundEvent } from '@bot-ai/api';
import { isAppError } from '../errors/app-error.ts';
import type { AttachmentStore } from './attachment-store.ts';
import { downloadInboundFile, type ChannelFetch } from './download-inbound-file.ts';
import { inboundAttachmentName } from './inbound-attachment-name.ts';
import type { InboundFileQuota } from './inbound-file-quota.ts';
import { matchAttachmentRefs } from './match-attachment-refs.ts';

/**
 * The files of one message the host downloads at most. Each costs the event's dispatch slot up
 * to BOT_EGRESS_TIMEOUT_MS and the attachment store up to BOT_EGRESS_MAX_RESPONSE_BYTES, and
 * the count is the channel's to say: without a bound, one message listing thousands of files
 * would hold its slot for hours and fill the disk. Platforms send one file a message (Telegram,
 * WhatsApp) or a handful (a Slack message, Messenger photos).
 */
export const MAX_INBOUND_FILES_PER_MESSAGE = 10;

/** The source of the event being taken in, as the run knows it. */
export type IntakeSource = ChannelSource & { channel: string };

export interface InboundAttachmentIntakeDeps {
  /** The channel's kind once registered: only `http` channels are asked for downloads. */
  kindOf(channel: string): 'http' | 'websocket' | undefined;
  /** The channel's `messageAttachments` call in its sandbox (through the channel registry). */
  locate(channel: string, event: PlainInboundEvent, source: ChannelSource): Promise<InboundAttachmentRef[]>;
  /** A request under the channel's egress rules and limits (ChannelEgress.performFor). */
  fetch: ChannelFetch;
  store: Pick<AttachmentStore, 'has' | 'save'>;
  /** The source's room for inbound files (BOT_INBOUND_FILES_MAX_MB_PER_SOURCE). */
  quota: Pick<InboundFileQuota, 'maxBytes' | 'isFull' | 'reserve' | 'written' | 'release'>;
  /** The host's signed download link of a stored file (AttachmentService.publicUrl). */
  publicUrl(channel: string, sourceId: string, name: string): Promise<string>;
  logger: { warn(fields: Record<string, unknown>, message: string): void };
}

/**
 * Takes the files of an inbound `attachment` message of an HTTP channel into the host, after the
 * event is stored and before its workflow runs: asks the channel where each file is
 * (`getMessageAttachments()`), downloads it under the channel's egress rules for the event's
 * source, stores it under a generated name (see inboundAttachmentName) and gives the workflow the
 * host's signed link as the attachment's `url` instead of anything the platform gave. The
 * platform's URL and headers are neither kept nor logged.
 *
 * Only the first MAX_INBOUND_FILES_PER_MESSAGE files are taken in; the others go on without a
 * `url` (logged once, BOT_ERR_ATTACHMENT_TOO_MANY). A file that would take the source's inbound
 * files past their quota (see InboundFileQuota) is not kept, and none is downloaded while they
 * fill it: those attachments go on without a `url` too, logged once for the message
 * (BOT_ERR_ATTACHMENT_QUOTA_EXCEEDED).
 *
 * A file that cannot be had (refused by egress, too large, too slow, an error status, the call
 * failing) never holds the message up: its attachment goes on without a `url`, and the failure is
 * logged once with its code. The event is not retried for it: a retry would hold the
 * conversation's later messages back for the backoff (seconds to hours) and, past the last
 * attempt, drop the message itself. A later attempt of the event for another reason takes the
 * missing files again and reuses the stored ones.
 * @example const event = await intake.intake(row.event, { inboundEventId: row.id, source });
 */
export class InboundAttachmentIntake {
  readonly #deps: InboundAttachmentIntakeDeps;

  constructor(deps: InboundAttachmentIntakeDeps) {
    this.#deps = deps;
  }

  /** The event as its workflow sees it: unchanged unless it is an attachment message of an HTTP channel. */
  async intake(event: PlainInboundEvent, { inboundEventId, source }: { inboundEventId: string; source: IntakeSource }): Promise<PlainInboundEvent> {
    const message = event.message;
    if (message?.type !== 'attachment' || this.#deps.kindOf(source.channel) === 'websocket') return event;
    const files = message.data.attachments;
    const where = { inboundEventId, channel: source.channel, sourceId: source.id };
    let attachments: InboundAttachment[];
    try {
      const { channel, ...plainSource } = source;
      const refs = matchAttachmentRefs(files, await this.#deps.locate(channel, event, plainSource));
      attachments = [];
      const overQuota: number[] = [];
      for (const [index, file] of files.entries()) {
        attachments.push(index < MAX_INBOUND_FILES_PER_MESSAGE ? await this.#takeIn(file, refs[index], { inboundEventId, index, source, overQuota }) : withoutUrl(file, refs[index]));
      }
      if (overQuota.length > 0) {
        // One line for the message, as for too many files: a full source gets files in a flood.
        const maxBytes = this.#deps.quota.maxBytes;
        this.#deps.logger.warn({ ...where, code: 'BOT_ERR_ATTACHMENT_QUOTA_EXCEEDED', attachments: overQuota, maxBytes }, `the source's inbound files are at their quota (BOT_INBOUND_FILES_MAX_MB_PER_SOURCE); its workflow sees ${overQuota.length} file(s) of an inbound message without urls`);
      }
      if (files.length > MAX_INBOUND_FILES_PER_MESSAGE) {
        // One line for all of them: a flood of files must not be a flood of log lines too.
        const left = files.length - MAX_INBOUND_FILES_PER_MESSAGE;
        this.#deps.logger.warn({ ...where, code: 'BOT_ERR_ATTACHMENT_TOO_MANY', files: files.length, taken: MAX_INBOUND_FILES_PER_MESSAGE }, `an inbound message has more files than the host takes in; its workflow sees the last ${left} without urls`);
      }
    } catch (error) {
      // The call failed: one line for the message, not one per file.
      this.#deps.logger.warn({ ...where, ...codeOf(error) }, 'the channel could not say where the files of an inbound message are; its workflow sees them without urls');
      attachments = files.map((file) => withoutUrl(file, undefined));
    }
    return { ...event, message: { ...message, data: { ...message.data, attachments } } };
  }

  /** One file: stored and linked, or without a `url` (and logged) when it cannot be had. */
  async #takeIn(file: InboundAttachment, ref: InboundAttachmentRef | undefined, at: { inboundEventId: string; index: number; source: IntakeSource; overQuota: number[] }): Promise<InboundAttachment> {
    const described = withoutUrl(file, ref);
    const { channel, id: sourceId } = at.source;
    const where = { inboundEventId: at.inboundEventId, channel, sourceId, attachment: at.index };
    if (!ref) {
      this.#deps.logger.warn({ ...where, code: 'BOT_ERR_ATTACHMENT_NOT_LOCATED' }, 'the channel named no download for a file of an inbound message; its workflow sees it without a url');
      return described;
    }
    const name = inboundAttachmentName(at.inboundEventId, at.index, { names: [file.name, ref.name], url: ref.url, mimeTypes: [file.mimeType, ref.mimeType] });
    try {
      if (!(await this.#deps.store.has(sourceId, name)) && !(await this.#store(channel, sourceId, name, ref))) {
        at.overQuota.push(at.index);
        return described;
      }
      return { ...described, url: await this.#deps.publicUrl(channel, sourceId, name) };
    } catch (error) {
      // The origin only: the URL's path and query may carry a token, its headers a credential.
      this.#deps.logger.warn({ ...where, origin: originOf(ref.url), ...codeOf(error) }, 'a file of an inbound message could not be fetched; its workflow sees it without a url');
      return described;
    }
  }

  /** Downloads and stores one file within the source's quota; false, keeping nothing, when the quota has no room for it. */
  async #store(channel: string, sourceId: string, name: string, ref: InboundAttachmentRef): Promise<boolean> {
    const { quota, store } = this.#deps;
    // A full source costs no download: the bytes could only be thrown away.
    if (await quota.isFull(sourceId)) return false;
    const bytes = await downloadInboundFile(this.#deps.fetch, channel, sourceId, ref);
    if (!(await quota.reserve(sourceId, bytes.byteLength))) return false;
    try {
      await store.save(sourceId, name, bytes);
    } catch (error) {
      quota.release(sourceId, bytes.byteLength);
      throw error;
    }
    quota.written(sourceId, bytes.byteLength);
    return true;
  }
}

/** The attachment as the message holds it (name and media type filled from the channel's reference when it has none), without the platform's `url`. */
function withoutUrl(file: InboundAttachment, ref: InboundAttachmentRef | undefined): InboundAttachment {
  const { url: _platformUrl, ...kept } = file;
  return { ...kept, ...fillIn('name', file.name ?? ref?.name), ...fillIn('mimeType', file.mimeType ?? ref?.mimeType) };
}

function fillIn<K extends 'name' | 'mimeType'>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : '(not a URL)';
}

/**
 * What a failure's log line says: its code, the code inside a plugin's error, and the message
 * only of the host's egress and attachment errors, which name an origin at most. A plugin's own
 * message could hold anything, a URL with a token included.
 */
function codeOf(error: unknown): Record<string, unknown> {
  const code = (error as { code?: unknown } | null)?.code;
  const causeCode = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const ours = isAppError(error) && /^BOT_ERR_(EGRESS|ATTACHMENT)_/.test(error.code);
  const status = ours ? (error.details as { status?: unknown } | undefined)?.status : undefined;
  return {
    code: typeof code === 'string' ? code : 'BOT_ERR_INTERNAL',
    ...(typeof causeCode === 'string' ? { causeCode } : {}),
    ...(typeof status === 'number' ? { status } : {}),
    ...(ours ? { reason: (error as Error).message } : {}),
  };
}
