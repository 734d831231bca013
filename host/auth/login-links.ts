import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError } from '../errors/app-error.ts';
import type { AdminClaims } from './admin-token.ts';

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * One-time login codes: `npm start` prints a link holding one; redeeming it once yields an admin
 * token. Only the code's hash is stored, so a database dump cannot be replayed.
 */
export class LoginLinks {
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(claims: AdminClaims, ttlMs: number): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    await this.db('login_links').insert({
      code_hash: hash(code),
      sub: claims.sub,
      role: claims.role,
      expires_at: new Date(this.now().getTime() + ttlMs),
    });
    return code;
  }

  /** Marks the code used and returns its claims; a used, expired or unknown code fails the same way. */
  async redeem(code: string): Promise<AdminClaims> {
    const now = this.now();
    const [row] = await this.db('login_links')
      .update({ used_at: now })
      .where({ code_hash: hash(code) })
      .whereNull('used_at')
      .where('expires_at', '>', now)
      .returning<AdminClaims[]>(['sub', 'role']);
    if (!row) throw new AppError('BOT_ERR_AUTH_LOGIN_LINK_INVALID', 'The login link is unknown, used or expired');
    return { sub: row.sub, role: row.role };
  }
}
