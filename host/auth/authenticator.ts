import type { Context } from 'koa';
import { AppError } from '../errors/app-error.ts';
import { verifyAdminToken } from './admin-token.ts';
import { SIGNED_IN, type RouteAccess } from './permissions.ts';
import type { Principal } from './principal.ts';
import type { RoleStore } from './role-store.ts';

/** Checks the bearer token (401) and the role's permission (403) of a protected route; `signed_in` needs the token only. */
export class Authenticator {
  constructor(
    private readonly secret: string,
    private readonly roles: RoleStore,
  ) {}

  async authorize(ctx: Context, permission: RouteAccess): Promise<Principal> {
    const principal = await this.authenticate(ctx.get('authorization'));
    if (permission !== SIGNED_IN && !principal.permissions.has(permission)) {
      throw new AppError('BOT_ERR_AUTH_FORBIDDEN', `Role "${principal.role}" lacks the permission ${permission}`, {
        permission,
      });
    }
    return principal;
  }

  async authenticate(authorization: string): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new AppError('BOT_ERR_AUTH_TOKEN_MISSING', 'Send Authorization: Bearer <token>');
    const claims = verifyAdminToken(match[1]!, this.secret);
    return { ...claims, permissions: await this.roles.permissionsOf(claims.role) };
  }
}
