import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';

/**
 * The secret kept in `file`, generated on first use (24 random bytes, base64url). The file is
 * created with O_EXCL and mode 0600 in one call, so it is never readable by anyone else, not even
 * between creating and writing it; an existing one that is looser (older versions, a restored
 * backup) is tightened before it is read.
 */
export async function readOrCreateSecretFile(file: string): Promise<string> {
  const secret = randomBytes(24).toString('base64url');
  try {
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (((await stat(file)).mode & 0o7177) !== 0) await chmod(file, 0o600);
  const stored = (await readFile(file, 'utf8')).trim();
  if (stored) return stored;
  // A start that died between creating and writing the file: nothing can have used it yet.
  await writeFile(file, secret);
  return secret;
}
