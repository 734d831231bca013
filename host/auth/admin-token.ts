import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { AppError } from '../errors/app-error.ts';

// `exp` is required: a token that never expires cannot be revoked short of rotating the secret.
const claimsSchema = z.object({ sub: z.string().min(1), role: z.string().min(1), exp: z.number() });
export type AdminClaims = { sub: string; role: string };

export interface SignOptions {
  /** A `ms`-style duration (`15m`, `12h`, `7d`) or seconds. */
  ttl: string | number;
}

/** Signs an HS256 admin token carrying `sub` and `role`. */
export function signAdminToken(claims: AdminClaims, secret: string, { ttl }: SignOptions): string {
  return jwt.sign({ role: claims.role }, secret, {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: ttl as jwt.SignOptions['expiresIn'],
  });
}

/** Verifies signature (HS256 only, so `alg: none` and key confusion are refused), expiry and claims. */
export function verifyAdminToken(token: string, secret: string): AdminClaims {
  let payload: unknown;
  try {
    payload = jwt.verify(token, secret, { algorithms: ['HS256'] });
  } catch (error) {
    const reason = error instanceof jwt.TokenExpiredError ? 'The token has expired' : 'The token is not valid';
    throw new AppError('BOT_ERR_AUTH_TOKEN_INVALID', reason, undefined, { cause: error });
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw new AppError('BOT_ERR_AUTH_TOKEN_INVALID', 'The token lacks the sub, role or exp claim');
  return { sub: claims.data.sub, role: claims.data.role };
}
