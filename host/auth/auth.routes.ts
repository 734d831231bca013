import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http/route-definition.ts';
import { signAdminToken } from './admin-token.ts';
import { PERMISSIONS, SIGNED_IN } from './permissions.ts';
import type { LoginLinks } from './login-links.ts';

const SESSION_TTL = '12h';

export function authRoutes(deps: { loginLinks: LoginLinks; authSecret: string }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/auth/login',
      operationId: 'redeemLoginLink',
      summary: 'Exchange a one-time login code (from the link `npm start` prints) for an admin token',
      tag: 'auth',
      permission: null,
      body: z.object({ code: z.string().min(1).max(200) }).strict(),
      success: {
        status: 200,
        description: 'A bearer token for the admin API',
        schema: z.object({ token: z.string(), role: z.string(), sub: z.string() }),
      },
      errors: [401],
      async handle({ body }) {
        const claims = await deps.loginLinks.redeem(body.code);
        return { ...claims, token: signAdminToken(claims, deps.authSecret, { ttl: SESSION_TTL }) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/auth/me',
      operationId: 'whoAmI',
      summary: "The caller's subject, role and the permissions that role holds (the admin panel enables actions by them)",
      tag: 'auth',
      permission: SIGNED_IN,
      success: {
        status: 200,
        description: 'Who the token speaks for',
        schema: z.object({ sub: z.string(), role: z.string(), permissions: z.array(z.string()) }),
      },
      handle({ principal }) {
        const { sub, role, permissions } = principal!;
        // In vocabulary order, so the answer reads the same whatever order the role rows have.
        return { sub, role, permissions: PERMISSIONS.filter((permission) => permissions.has(permission)) };
      },
    }),
  ];
}
