import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostServices } from '@bot-ai/api';
import { configSchema } from '../config/config.schema.ts';
import { AppError } from '../errors/app-error.ts';
import type { SourceRow } from '../sources/source.ts';
import { checkAttachmentName } from './attachment-name.ts';
import { AttachmentStore } from './attachment-store.ts';
import { DownloadTokens } from './download-token.ts';

export interface AttachmentOptions {
  /** Where files are kept: `<BOT_DATA_DIR>/attachments`. */
  dir: string;
  /** The resolved BOT_DOWNLOAD_SECRET (32+ characters); never the admin secret. */
  secret: string;
  /** BOT_DOWNLOAD_TOKEN_TTL_MS: how long a download link works. */
  tokenTtlMs: number;
  /**
   * The base of download links: BOT_PUBLIC_URL, else `http://HOST:PORT`. A function when the
   * port is only known once the server listens.
   */
  publicBaseUrl: string | (() => string);
}

/** How the link builder finds a source by id (the source store; throws 404 when unknown). */
export interface SourcesById {
  get(id: string): Promise<SourceRow>;
}

/**
 * Attachment downloads: the file store, the download tokens, and the links plugins ask for
 * through `channelAttachmentService.getPublicUrl(sourceId, attachmentRef)`.
 */
export class AttachmentService {
  readonly store: AttachmentStore;
  readonly tokens: DownloadTokens;
  readonly #sources: SourcesById;
  readonly #publicBaseUrl: () => string;

  constructor(sources: SourcesById, options: AttachmentOptions & { now: () => Date }) {
    this.#sources = sources;
    this.store = new AttachmentStore(options.dir);
    this.tokens = new DownloadTokens({ secret: options.secret, ttlMs: options.tokenTtlMs, now: options.now });
    const base = options.publicBaseUrl;
    this.#publicBaseUrl = typeof base === 'function' ? base : () => base;
  }

  /**
   * A signed, expiring URL of the file `name` of the source, for the channel `channelName`:
   * `<publicBase>/api/webhook/<sourceRef>/download/<name>?t=<token>`. Refuses a bad name (422),
   * an unknown source (404 BOT_ERR_SOURCE_NOT_FOUND) and a source of another channel, or a
   * caller whose channel is not known yet (403 BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN). The file
   * need not exist yet; the link answers 404 until it does.
   */
  async publicUrl(channelName: string | undefined, sourceId: string, name: string): Promise<string> {
    checkAttachmentName(name);
    const source = await this.#sources.get(sourceId);
    if (channelName === undefined || source.channel !== channelName) {
      throw new AppError('BOT_ERR_ATTACHMENT_SOURCE_FORBIDDEN', `Source "${sourceId}" belongs to another channel than the one asking`, { sourceId });
    }
    const token = this.tokens.sign({ sourceId: source.id, name });
    const base = this.#publicBaseUrl().replace(/\/+$/, '');
    return `${base}/api/webhook/${encodeURIComponent(source.ref)}/download/${encodeURIComponent(name)}?t=${token}`;
  }

  /** The worker → host services of one channel (`channelName` answers once it has described itself). */
  hostServicesFor(channelName: () => string | undefined): HostServices {
    return { getAttachmentPublicUrl: (sourceId, attachmentRef) => this.publicUrl(channelName(), sourceId, attachmentRef) };
  }
}

/**
 * The options with defaults for what is not given. The defaults suit tests and tools only: a
 * throw-away folder under the system's temporary directory (created at the first save) and a
 * random secret per process (strong, but links die with the process). The host's start passes
 * `<BOT_DATA_DIR>/attachments` and the resolved BOT_DOWNLOAD_SECRET.
 */
export function attachmentOptionsWithDefaults(options: Partial<AttachmentOptions> = {}): AttachmentOptions {
  const defaults = configSchema.parse({});
  return {
    dir: options.dir ?? path.join(tmpdir(), `bot-attachments-${randomUUID()}`),
    secret: options.secret ?? randomBytes(32).toString('base64url'),
    tokenTtlMs: options.tokenTtlMs ?? defaults.BOT_DOWNLOAD_TOKEN_TTL_MS,
    publicBaseUrl: options.publicBaseUrl ?? `http://${defaults.HOST}:${defaults.PORT}`,
  };
}
