/** The claims the panel reads from an admin token (HS256 JWT; the server checks the signature). */
export interface TokenClaims {
  sub: string;
  role: string;
  /** Seconds since the epoch, when the token has an expiry. */
  exp?: number;
}

/** The token's claims, or undefined when it is not a JWT with `sub` and `role`. */
export function decodeToken(token: string): TokenClaims | undefined {
  const payload = token.trim().split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(json) as Partial<TokenClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.role !== 'string') return undefined;
    return { sub: claims.sub, role: claims.role, ...(typeof claims.exp === 'number' ? { exp: claims.exp } : {}) };
  } catch {
    return undefined;
  }
}

/** Whether the token has expired (by the browser's clock). */
export function isExpired(claims: TokenClaims, nowMs = Date.now()): boolean {
  return claims.exp !== undefined && claims.exp * 1000 <= nowMs;
}
