import jwt from 'jsonwebtoken';
import { z } from 'zod';

/**
 * The audience of every download token. Admin tokens carry none, so even a key shared by
 * mistake could not turn one kind of token into the other.
 */
export const DOWNLOAD_TOKEN_AUDIENCE = 'bot:attachment-download';

/** What a download token grants: one file of one source, until it expires. */
export interface DownloadGrant {
  sourceId: string;
  name: string;
}

const claimsSchema = z.object({
  aud: z.literal(DOWNLOAD_TOKEN_AUDIENCE),
  src: z.string().min(1),
  name: z.string().min(1),
  exp: z.number(),
});

export interface DownloadTokenOptions {
  /** BOT_DOWNLOAD_SECRET; never the admin secret. */
  secret: string;
  /** BOT_DOWNLOAD_TOKEN_TTL_MS. */
  ttlMs: number;
  now: () => Date;
}

/** Signs and checks the `t` of download URLs: HS256 with the download secret, expiring. */
export class DownloadTokens {
  readonly #secret: string;
  readonly #ttlMs: number;
  readonly #now: () => Date;

  constructor({ secret, ttlMs, now }: DownloadTokenOptions) {
    if (secret.length < 32) throw new Error('The download secret must be at least 32 characters');
    if (!(ttlMs > 0)) throw new Error('The download token lifetime must be positive');
    this.#secret = secret;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  sign({ sourceId, name }: DownloadGrant): string {
    const nowMs = this.#now().getTime();
    const iat = Math.floor(nowMs / 1000);
    // Rounded down to whole seconds (JWT time): a token never outlives its lifetime.
    const exp = Math.floor((nowMs + this.#ttlMs) / 1000);
    return jwt.sign({ src: sourceId, name, iat, exp }, this.#secret, { algorithm: 'HS256', audience: DOWNLOAD_TOKEN_AUDIENCE });
  }

  /**
   * True only when the token is well signed (HS256 only: `alg: none` and key confusion are
   * refused), unexpired, meant for downloads, and names exactly this source and file. Never
   * says which check failed.
   */
  grants(token: unknown, { sourceId, name }: DownloadGrant): boolean {
    if (typeof token !== 'string' || token.length === 0) return false;
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.#secret, {
        algorithms: ['HS256'],
        audience: DOWNLOAD_TOKEN_AUDIENCE,
        clockTimestamp: Math.floor(this.#now().getTime() / 1000),
      });
    } catch {
      return false;
    }
    const claims = claimsSchema.safeParse(payload);
    return claims.success && claims.data.src === sourceId && claims.data.name === name;
  }
}
