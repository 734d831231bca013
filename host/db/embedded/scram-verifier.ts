import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(pbkdf2);

/** PostgreSQL's default `scram_iterations`. */
const ITERATIONS = 4096;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802/7677, in the format of
 * `pg_authid.rolpassword`). `ALTER ROLE … PASSWORD` accepts it as is, so the password itself
 * never reaches the server, its logs or its statistics.
 *
 * @example
 * await client.query(`ALTER ROLE bot_app PASSWORD ${client.escapeLiteral(await scramVerifier(password))}`);
 */
export async function scramVerifier(password: string): Promise<string> {
  // SASLprep leaves printable ASCII as it is, so no normalisation is needed for such passwords.
  if (!PRINTABLE_ASCII.test(password)) throw new TypeError('scramVerifier takes printable ASCII passwords only');
  const salt = randomBytes(16);
  const salted = await derive(password, salt, ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
