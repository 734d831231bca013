import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from './config.schema.ts';

export interface Secrets {
  authSecret: string;
  downloadSecret: string;
}

const SECRETS_FILE = 'secrets.json';

const storedSecretsSchema = z.object({ authSecret: z.string().min(32), downloadSecret: z.string().min(32) });

/**
 * The configured secrets, or on the embedded default ones generated once and kept under the data
 * directory (mode 0600) so tokens survive restarts.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  if (config.BOT_AUTH_SECRET && config.BOT_DOWNLOAD_SECRET) {
    return { authSecret: config.BOT_AUTH_SECRET, downloadSecret: config.BOT_DOWNLOAD_SECRET };
  }
  const stored = await readOrCreateStoredSecrets(config.BOT_DATA_DIR);
  return {
    authSecret: config.BOT_AUTH_SECRET ?? stored.authSecret,
    downloadSecret: config.BOT_DOWNLOAD_SECRET ?? stored.downloadSecret,
  };
}

async function readOrCreateStoredSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, SECRETS_FILE);
  try {
    return parseStoredSecrets(file, await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: Secrets = {
    authSecret: randomBytes(32).toString('base64url'),
    downloadSecret: randomBytes(32).toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true });
  // 'wx' fails if another process created the file meanwhile; then theirs wins.
  try {
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parseStoredSecrets(file, await readFile(file, 'utf8'));
  }
}

/** A truncated or hand-edited file stops start-up with its name, rather than failing every login. */
function parseStoredSecrets(file: string, text: string): Secrets {
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
