import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Knex } from 'knex';
import pg from 'pg';
import { createKnex } from '../../../host/db/create-knex.ts';
import { startEmbeddedPostgres } from '../../../host/db/embedded-postgres.ts';
import { migrateToLatest, migrationSource } from '../../../host/db/migration-source.ts';
import { claimAll } from '../../support/claim-events.ts';

// Clusters of this file's own, in a folder the cluster's account may enter when tests run as root.
const root = await mkdtemp(path.join(tmpdir(), 'bot-embedded-role-'));
await chmod(root, 0o755);
after(() => rm(root, { recursive: true, force: true }));

async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Everything outside PostgreSQL's own schemas that the superuser `postgres` still owns. */
const SUPERUSER_OBJECTS = `
  SELECT n.nspname || ' ' || o.kind AS object FROM (
    SELECT relowner AS owner, relnamespace AS ns, relname::text || ' (' || relkind::text || ')' AS kind FROM pg_class
    UNION ALL SELECT proowner, pronamespace, proname::text FROM pg_proc
    UNION ALL SELECT typowner, typnamespace, typname::text FROM pg_type
    UNION ALL SELECT nspowner, oid, 'schema' FROM pg_namespace
  ) o JOIN pg_namespace n ON n.oid = o.ns
  WHERE o.owner = 'postgres'::regrole AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
  ORDER BY 1`;

/** The migration that made the inbox the dispatcher's queue and dropped graphile-worker's schema. */
const INBOX_QUEUE_MIGRATION = '20261125000015_inbox_queue';

const WHO_AM_I = `
  SELECT current_user AS role, r.rolsuper, r.rolcreatedb, r.rolcreaterole, pg_get_userbyid(d.datdba) AS database_owner
  FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`;

test('the host connects to a fresh embedded cluster as a role that is no superuser, owns its database, and can migrate it', async () => {
  const server = await startEmbeddedPostgres({ dir: path.join(root, 'fresh'), port: 0, persistent: false });
  try {
    assert.deepEqual(await query(server.url, WHO_AM_I), [
      { role: 'bot_app', rolsuper: false, rolcreatedb: false, rolcreaterole: false, database_owner: 'bot_app' },
    ]);
    const db = createKnex({ url: server.url, poolMax: 2 });
    try {
      await migrateToLatest(db);
      await assertInboxQueueWorks(db);
    } finally {
      await db.destroy();
    }
    assert.deepEqual(await query(server.url, SUPERUSER_OBJECTS), []);
    const [admin] = await query<{ rolsuper: boolean }>(server.adminUrl, 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    assert.equal(admin?.rolsuper, true, 'adminUrl stays the superuser, for runners that create databases');
  } finally {
    await server.stop();
  }
});

test('a data folder from before the application role is handed over to it on the next start, its data kept', async () => {
  const dir = path.join(root, 'old');
  await makeOldLayout(dir);

  const server = await startEmbeddedPostgres({ dir, port: 0 });
  try {
    assert.deepEqual(await query(server.url, WHO_AM_I), [
      { role: 'bot_app', rolsuper: false, rolcreatedb: false, rolcreaterole: false, database_owner: 'bot_app' },
    ]);
    assert.deepEqual(await query(server.url, SUPERUSER_OBJECTS), [], 'every object the old host made now belongs to bot_app');
    assert.deepEqual(await query(server.url, 'SELECT slug FROM memory_definitions'), [{ slug: 'kept' }]);
    assert.deepEqual(await query(server.url, `SELECT nextval('legacy_counter')::int AS next, (SELECT count(*)::int FROM legacy_summary) AS summary`), [{ next: 1, summary: 1 }]);
    const db = createKnex({ url: server.url, poolMax: 2 });
    try {
      // The migrations the old host had not run yet run as the role: the inbox queue's drops
      // graphile-worker's schema, which only its owner may.
      const graphileSchema = `SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = 'graphile_worker'`;
      assert.deepEqual(await query(server.url, graphileSchema), [{ owner: 'bot_app' }]);
      await migrateToLatest(db);
      assert.deepEqual(await query(server.url, graphileSchema), []);
      // Only an owner may alter a table, and future migrations will alter the old ones.
      await db.raw('ALTER TABLE memory_definitions ADD COLUMN probe integer');
      await assertInboxQueueWorks(db);
    } finally {
      await db.destroy();
    }
  } finally {
    await server.stop();
  }
});

test('a role an operator changed by hand is put right on the next start', async () => {
  const dir = path.join(root, 'altered');
  const first = await startEmbeddedPostgres({ dir, port: 0 });
  await query(first.adminUrl, `ALTER ROLE bot_app SUPERUSER CREATEDB PASSWORD 'changed-by-hand'`);
  await first.stop();

  const second = await startEmbeddedPostgres({ dir, port: 0 });
  try {
    const [me] = await query<{ rolsuper: boolean; rolcreatedb: boolean }>(second.url, WHO_AM_I);
    assert.equal(me?.rolsuper, false);
    assert.equal(me?.rolcreatedb, false);
  } finally {
    await second.stop();
  }
});

/** The role can use the inbox queue (its claim function and the tables it writes): an event stored is claimed. */
async function assertInboxQueueWorks(db: Knex): Promise<void> {
  const [source] = await db('sources').insert({ ref: 'ref-probe', name: 'Probe', channel: 'sample', settings: '{}' }).returning('id');
  const [event] = await db('inbound_events').insert({ source_id: source.id, event_id: 'probe-1', sender_foreign_id: 'u1', event: '{}' }).returning('id');
  assert.deepEqual((await claimAll(db)).map((claimed) => claimed.id), [event.id]);
}

/**
 * The layout older versions left: the host connected as `postgres`, so the application's tables
 * (and graphile-worker's schema, the job queue of then) belong to it, in database `postgres`, and
 * there is no other role and no `app-password`. Made with today's start, then undone back to
 * before the inbox queue, plus a few kinds of objects the migrations do not make (an enum, a free
 * sequence, a materialised view, a function).
 */
async function makeOldLayout(dir: string): Promise<void> {
  const server = await startEmbeddedPostgres({ dir, port: 0 });
  try {
    await query(server.adminUrl, 'ALTER DATABASE postgres OWNER TO postgres; DROP ROLE bot_app');
    const db = createKnex({ url: server.adminUrl, poolMax: 2 });
    try {
      await migrateToLatest(db);
      await db.migrate.down({ migrationSource, name: INBOX_QUEUE_MIGRATION });
      await db.raw(`CREATE SCHEMA graphile_worker;
        CREATE TABLE graphile_worker._private_jobs (id bigserial PRIMARY KEY, payload json);
        CREATE FUNCTION graphile_worker.add_job(identifier text) RETURNS void LANGUAGE sql AS ''`);
      await db('memory_definitions').insert({ name: 'Kept', slug: 'kept', scope: 'global', schema: { type: 'object', properties: {} } });
      await db.raw(`CREATE TYPE legacy_mood AS ENUM ('calm', 'busy');
        CREATE SEQUENCE legacy_counter;
        CREATE MATERIALIZED VIEW legacy_summary AS SELECT count(*) AS definitions FROM memory_definitions;
        CREATE FUNCTION legacy_answer() RETURNS integer LANGUAGE sql AS 'SELECT 42'`);
    } finally {
      await db.destroy();
    }
    assert.notDeepEqual(await query(server.adminUrl, SUPERUSER_OBJECTS), [], 'the old layout has objects owned by postgres');
  } finally {
    await server.stop();
  }
  await unlink(path.join(dir, 'app-password'));
  assert.equal((await stat(path.join(dir, 'password'))).isFile(), true);
}
