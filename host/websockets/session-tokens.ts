import jwt from 'jsonwebtoken';
import { z } from 'zod';

/** The audience of chat session tokens: neither an admin nor a download token can pass for one. */
export const SESSION_TOKEN_AUDIENCE = 'bot:web-session';

/** How long a session token stays valid; every reconnect gets a fresh one, so only idle sessions expire. */
export const SESSION_TOKEN_TTL_MS = 90 * 24 * 60 * 60_000;

const claimsSchema = z.object({ aud: z.literal(SESSION_TOKEN_AUDIENCE), sub: z.uuid(), src: z.uuid(), exp: z.number() });

export interface SessionTokenOptions {
  /** BOT_WEB_SESSION_SECRET; never the admin or download secret. */
  secret: string;
  now: () => Date;
  ttlMs?: number;
}

/**
 * Signs and checks chat session tokens: HS256 with the web session secret, naming the session
 * (`sub`) and its source (`src`). A browser keeps its token and presents it on every connect,
 * which keeps its subscriber and thread.
 * @example
 * const token = tokens.sign({ sessionId, sourceId });
 * tokens.sessionOf(token, sourceId); // sessionId, or undefined when invalid or of another source
 */
export class SessionTokens {
  readonly #secret: string;
  readonly #now: () => Date;
  readonly #ttlMs: number;

  constructor({ secret, now, ttlMs = SESSION_TOKEN_TTL_MS }: SessionTokenOptions) {
    if (secret.length < 32) throw new Error('The web session secret must be at least 32 characters');
    this.#secret = secret;
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  sign({ sessionId, sourceId }: { sessionId: string; sourceId: string }): string {
    const nowMs = this.#now().getTime();
    const claims = { sub: sessionId, src: sourceId, iat: Math.floor(nowMs / 1000), exp: Math.floor((nowMs + this.#ttlMs) / 1000) };
    return jwt.sign(claims, this.#secret, { algorithm: 'HS256', audience: SESSION_TOKEN_AUDIENCE });
  }

  /** The session id when the token is well signed (HS256 only), unexpired and of this source; never says which check failed. */
  sessionOf(token: unknown, sourceId: string): string | undefined {
    if (typeof token !== 'string' || token.length === 0 || token.length > 2048) return undefined;
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.#secret, {
        algorithms: ['HS256'],
        audience: SESSION_TOKEN_AUDIENCE,
        clockTimestamp: Math.floor(this.#now().getTime() / 1000),
      });
    } catch {
      return undefined;
    }
    const claims = claimsSchema.safeParse(payload);
    return claims.success && claims.data.src === sourceId ? claims.data.sub : undefined;
  }
}
