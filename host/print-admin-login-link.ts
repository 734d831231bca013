import type { LoginLinks } from './auth/login-links.ts';

/**
 * On the embedded default, prints a one-time link that signs the reader in as admin. Printed to
 * stdout on purpose, never to the log stream, which may be shipped elsewhere.
 */
export async function printAdminLoginLink(loginLinks: LoginLinks, publicUrl: string, ttlMs: number): Promise<void> {
  const code = await loginLinks.create({ sub: 'admin', role: 'admin' }, ttlMs);
  const minutes = Math.round(ttlMs / 60_000);
  process.stdout.write(
    `\n  Admin login (one-time, valid ${minutes} min): ${publicUrl}/login#code=${code}\n` +
      `  Or for the API: npm run token -- --role admin\n\n`,
  );
}
