import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from './config.schema.ts';

export interface Secrets {
  authSecret: string;
  downloadSecret: string;
  /** Signs live chat session tokens (BOT_WEB_SESSION_SECRET). */
  webSessionSecret: string;
}

const SECRETS_FILE = 'secrets.json';

const storedSecretsSchema = z.object({
  authSecret: z.string().min(32),
  downloadSecret: z.string().min(32),
  // Absent from files written before live chat existed: generated and added on the next start.
  webSessionSecret: z.string().min(32).optional(),
});

/**
 * The configured secrets, or on the embedded default ones generated once and kept under the data
 * directory (mode 0600) so tokens survive restarts.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  if (config.BOT_AUTH_SECRET && config.BOT_DOWNLOAD_SECRET && (config.BOT_WEB_SESSION_SECRET || !config.embeddedDatabase)) {
    return {
      authSecret: config.BOT_AUTH_SECRET,
      downloadSecret: config.BOT_DOWNLOAD_SECRET,
      webSessionSecret: config.BOT_WEB_SESSION_SECRET ?? deriveWebSessionSecret(config.BOT_AUTH_SECRET),
    };
  }
  const stored = await readOrCreateStoredSecrets(config.BOT_DATA_DIR);
  return {
    authSecret: config.BOT_AUTH_SECRET ?? stored.authSecret,
    downloadSecret: config.BOT_DOWNLOAD_SECRET ?? stored.downloadSecret,
    webSessionSecret: config.BOT_WEB_SESSION_SECRET ?? stored.webSessionSecret,
  };
}

/**
 * With DATABASE_URL and no BOT_WEB_SESSION_SECRET: a key derived from the admin secret
 * (HMAC-SHA256 under a label of its own), as strong as it and distinct from it, so existing
 * deployments need no new variable. Rotating BOT_AUTH_SECRET then also ends chat sessions.
 */
export function deriveWebSessionSecret(authSecret: string): string {
  return createHmac('sha256', authSecret).update('bot:web-session-secret').digest('base64url');
}

async function readOrCreateStoredSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, SECRETS_FILE);
  try {
    return await completeStoredSecrets(file, parseStoredSecrets(file, await readFile(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: Secrets = {
    authSecret: randomBytes(32).toString('base64url'),
    downloadSecret: randomBytes(32).toString('base64url'),
    webSessionSecret: randomBytes(32).toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true });
  // 'wx' fails if another process created the file meanwhile; then theirs wins.
  try {
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return completeStoredSecrets(file, parseStoredSecrets(file, await readFile(file, 'utf8')));
  }
}

/** Adds the secrets a file written by an older version lacks, keeping the others (write, then rename). */
async function completeStoredSecrets(file: string, stored: z.infer<typeof storedSecretsSchema>): Promise<Secrets> {
  if (stored.webSessionSecret) return { ...stored, webSessionSecret: stored.webSessionSecret };
  const secrets: Secrets = { ...stored, webSessionSecret: randomBytes(32).toString('base64url') };
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  await rename(temporary, file);
  return secrets;
}

/** A truncated or hand-edited file stops start-up with its name, rather than failing every login. */
function parseStoredSecrets(file: string, text: string): z.infer<typeof storedSecretsSchema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = storedSecretsSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${file} is damaged: it must hold authSecret and downloadSecret (32+ characters); fix or delete it`);
  }
  return parsed.data;
}
