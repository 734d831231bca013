import type { LoginLinks } from './auth/login-links.ts';

/**
 * On the embedded default, prints a one-time link that signs the reader in as admin. It is a
 * plain line on stdout, not a log entry, so it is not indexed with the logs; the code is
 * single-use and expires (BOT_AUTH_LOGIN_LINK_TTL_MS).
 */
export async function printAdminLoginLink(loginLinks: LoginLinks, publicUrl: string, ttlMs: number): Promise<void> {
  const code = await loginLinks.create({ sub: 'admin', role: 'admin' }, ttlMs);
  const minutes = Math.round(ttlMs / 60_000);
  process.stdout.write(
    `\n  Admin login (one-time, valid ${minutes} min): ${publicUrl}/login#code=${code}\n` +
      `  Or for the API: npm run token -- --role admin\n\n`,
  );
}
