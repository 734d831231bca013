import jwt from 'jsonwebtoken';
import { signAdminToken } from '../../host/auth/admin-token.ts';
import { DOWNLOAD_TOKEN_AUDIENCE } from '../../host/attachments/download-token.ts';
import { TEST_AUTH_SECRET, TEST_DOWNLOAD_SECRET } from '../support/test-app.ts';

/**
 * What a request presents. A credential either cannot authenticate (`role` undefined: every
 * protected route must answer 401) or is a valid token of `role` (the role table decides
 * between 403 and being let through).
 */
export interface Credential {
  name: string;
  authorization: string | undefined;
  role: string | undefined;
}

const inSeconds = (offset: number) => Math.floor(Date.now() / 1000) + offset;
const bearer = (token: string) => `Bearer ${token}`;

/** Tokens that must never get past authentication, each broken in one way. */
export function unauthenticatedCredentials(): Credential[] {
  const claims = { sub: 'mallory', role: 'admin' };
  const cases: [string, string | undefined][] = [
    ['no token', undefined],
    ['a malformed token', bearer('not.a.jwt')],
    ['a token signed with another secret', bearer(signAdminToken(claims, 'another-secret-another-secret-0123456789', { ttl: '1h' }))],
    ['an expired token', bearer(jwt.sign({ ...claims, exp: inSeconds(-60) }, TEST_AUTH_SECRET, { algorithm: 'HS256' }))],
    ['an unsigned token (alg none)', bearer(jwt.sign({ ...claims, exp: inSeconds(3600) }, '', { algorithm: 'none' }))],
    // A download link's token is signed with the download secret: it must not open the admin API.
    [
      'a download-link token',
      bearer(jwt.sign({ ...claims, src: 'x', name: 'y', exp: inSeconds(3600) }, TEST_DOWNLOAD_SECRET, { algorithm: 'HS256', audience: DOWNLOAD_TOKEN_AUDIENCE })),
    ],
  ];
  return cases.map(([name, authorization]) => ({ name, authorization, role: undefined }));
}

/** A valid, unexpired token for each role; `intruder` is in no role table, so it holds nothing. */
export function roleCredentials(roles: readonly string[]): Credential[] {
  return [...roles, 'intruder'].map((role) => ({
    name: `a token of role ${role}`,
    authorization: bearer(signAdminToken({ sub: `${role}-user`, role }, TEST_AUTH_SECRET, { ttl: '1h' })),
    role,
  }));
}
