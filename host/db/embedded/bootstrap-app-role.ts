import pg from 'pg';
import { adoptSuperuserObjectsSql } from './adopt-superuser-objects.ts';
import { scramVerifier } from './scram-verifier.ts';

/** The role the host connects to the embedded cluster as: it owns the application's data, nothing more. */
export const APP_ROLE = 'bot_app';

/**
 * The application's database is `postgres`, the one initdb makes, on new and old data folders
 * alike. Folders made before the application role existed hold the application's tables there;
 * keeping that database (and handing its objects to the role) migrates them in place, with no
 * copy, no rename and one layout for every cluster, where a database of its own would mean
 * moving the data or living with two layouts.
 */
export const APP_DATABASE = 'postgres';

/**
 * As the superuser, makes the cluster ready for the host: the application role exists, may log
 * in with `password` and is no superuser and cannot create roles or databases; it owns the
 * application database (so its `public` schema, which belongs to `pg_database_owner`) and every
 * object there the superuser made for an older version. One transaction, idempotent: it runs at
 * every start, so a role changed by hand or a regenerated password file is put right.
 */
export async function bootstrapAppRole(adminUrl: string, password: string): Promise<void> {
  // search_path is fixed on the command line, which outranks the per-database default the
  // database's owner (the application role) may set: nothing it creates resolves here.
  const client = new pg.Client({ connectionString: adminUrl, options: '-c search_path=pg_catalog', application_name: 'bot-host-bootstrap' });
  client.on('error', () => undefined); // a server gone mid-way fails the query below instead
  await client.connect();
  try {
    await client.query('BEGIN');
    const existing = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
    if (existing.rowCount === 0) await client.query(`CREATE ROLE ${APP_ROLE}`);
    const verifier = client.escapeLiteral(await scramVerifier(password));
    await client.query(`ALTER ROLE ${APP_ROLE} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT PASSWORD ${verifier}`);
    await client.query(`ALTER DATABASE ${APP_DATABASE} OWNER TO ${APP_ROLE}`);
    await client.query(adoptSuperuserObjectsSql(APP_ROLE));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
