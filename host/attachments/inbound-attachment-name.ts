/** An extension the host keeps: a dot, then 1 to 10 letters or digits (`.jpg`, `.tar`, `.m4a`). */
const EXTENSION = /\.([A-Za-z0-9]{1,10})$/;

/** Extensions of the media types platforms send most, for a file that comes with no name. */
const EXTENSION_OF_TYPE: Readonly<Record<string, string>> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'audio/ogg': '.ogg',
  'audio/mpeg': '.mp3',
  'audio/mp4': '.m4a',
  'video/mp4': '.mp4',
  'application/pdf': '.pdf',
};

/** What may tell a file's extension, in the order asked: the message's, then the channel's download reference. */
export interface InboundFileHints {
  names: readonly (string | undefined)[];
  /** The download URL: only the last segment of its path is read (never stored or logged). */
  url: string | undefined;
  mimeTypes: readonly (string | undefined)[];
}

/**
 * The stored name of the `index`th file of an inbound event: generated from the event's id (a
 * UUID) and the position, so nothing the subscriber or the platform chose reaches the file
 * system but an extension of letters and digits, kept from the first name (the message's, the
 * channel's, the URL's last path segment) that has one, else guessed from a common media type.
 * The same event and file always get the same name: a later attempt of the event finds the file
 * an earlier one stored.
 * @example inboundAttachmentName('0b9e…', 0, { names: ['Holiday.JPG'], url: undefined, mimeTypes: [] }) // '0b9e…-1.jpg'
 */
export function inboundAttachmentName(inboundEventId: string, index: number, hints: InboundFileHints): string {
  return `${inboundEventId}-${index + 1}${extensionOf(hints)}`;
}

/** The names inboundAttachmentName makes: a lower-case UUID, `-`, a position from 1, and an optional extension. */
const INBOUND_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[1-9][0-9]*(\.[a-z0-9]{1,10})?$/;

/**
 * Whether a stored name is one the intake gives the files subscribers send: only these count
 * toward a source's inbound quota and are deleted past the retention. Any other name in the store
 * (a file an operator or a workflow put there for sending) is neither counted nor swept.
 * @example isInboundAttachmentName(inboundAttachmentName(id, 0, hints)) // true; isInboundAttachmentName('invoice.pdf') // false
 */
export function isInboundAttachmentName(name: string): boolean {
  return INBOUND_NAME.test(name);
}

function extensionOf({ names, url, mimeTypes }: InboundFileHints): string {
  for (const name of [...names, lastPathSegment(url)]) {
    const match = name === undefined ? null : EXTENSION.exec(name);
    if (match) return `.${match[1]!.toLowerCase()}`;
  }
  for (const type of mimeTypes) {
    const extension = type === undefined ? undefined : EXTENSION_OF_TYPE[type.split(';')[0]!.trim().toLowerCase()];
    if (extension) return extension;
  }
  return '';
}

function lastPathSegment(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  return new URL(url).pathname.split('/').at(-1);
}
