/**
 * `npm run token -- --role <role> [--sub <name>] [--ttl <duration>]` prints an admin API token
 * signed with BOT_AUTH_SECRET (on the embedded default, the secret generated under BOT_DATA_DIR).
 */
import { parseArgs } from 'node:util';
import { signAdminToken } from '../host/auth/admin-token.ts';
import { SEEDED_ROLES } from '../host/auth/permissions.ts';
import { ConfigError, loadConfig } from '../host/config/load-config.ts';
import { resolveSecrets } from '../host/config/persisted-secrets.ts';

class UsageError extends Error {}

const USAGE = 'usage: npm run token -- --role <admin|editor|viewer> [--sub <name>] [--ttl <15m|12h|7d>]';

try {
  const { values } = parseArgs({
    options: { role: { type: 'string' }, sub: { type: 'string', default: 'cli' }, ttl: { type: 'string', default: '12h' } },
  });
  if (!values.role || !/^[a-z][a-z0-9_]*$/.test(values.role)) throw new UsageError('--role is required');
  if (!/^\d+[smhd]?$/.test(values.ttl)) throw new UsageError('--ttl must look like 900, 15m, 12h or 7d');
  if (!(SEEDED_ROLES as readonly string[]).includes(values.role)) {
    console.error(`note: "${values.role}" is not a seeded role; it works only if it exists in the database`);
  }
  const secrets = await resolveSecrets(loadConfig());
  const ttl = /^\d+$/.test(values.ttl) ? Number(values.ttl) : values.ttl;
  console.log(signAdminToken({ sub: values.sub, role: values.role }, secrets.authSecret, { ttl }));
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError || isParseError(error)) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  throw error;
}

function isParseError(error: unknown): boolean {
  return typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}
