/**
 * SQL that gives `role` everything the connected superuser owns in the current database outside
 * PostgreSQL's own schemas: schemas, tables, views, sequences, types and routines. It is how a
 * data folder from before the application role existed (where the host connected as `postgres`
 * and so owns every table) is handed over, and a no-op on
 * every later start.
 *
 * `REASSIGN OWNED BY postgres` would say it in one line, but PostgreSQL refuses it for the
 * bootstrap superuser ("required by the database system"), so each kind of object is altered by
 * itself. Tables go first: ALTER TABLE carries along their indexes, TOAST tables, row types and
 * the sequences their columns own, which may not be altered on their own. `role` must be a plain
 * lower-case identifier; it is written into the statements as is.
 */
export function adoptSuperuserObjectsSql(role: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(role)) throw new TypeError(`Role name "${role}" is not a plain identifier`);
  const appSchema = (column: string) => `${column} NOT IN ('pg_catalog', 'information_schema') AND ${column} NOT LIKE 'pg\\_%'`;
  // An extension's members stay with the extension (none of ours has any; an operator's might).
  const ownObject = (catalog: string, oid: string) =>
    `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;
  return `DO $adopt$
DECLARE
  superuser_oid oid := (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user);
  item record;
BEGIN
  FOR item IN SELECT n.nspname FROM pg_namespace n
      WHERE n.nspowner = superuser_oid AND ${appSchema('n.nspname')} LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${role}', item.nspname);
  END LOOP;
  FOR item IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relowner = superuser_oid AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${appSchema('n.nspname')}
        AND ${ownObject('pg_class', 'c.oid')} LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${role}',
      CASE item.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, item.name);
  END LOOP;
  -- Sequences no column owns (the others changed owner with their tables just now).
  FOR item IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relowner = superuser_oid AND c.relkind = 'S' AND ${appSchema('n.nspname')}
        AND ${ownObject('pg_class', 'c.oid')} LOOP
    EXECUTE format('ALTER SEQUENCE %s OWNER TO ${role}', item.name);
  END LOOP;
  -- Types of their own: enums, domains, ranges, composite types made with CREATE TYPE.
  FOR item IN SELECT t.oid::regtype AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE t.typowner = superuser_oid AND ${appSchema('n.nspname')} AND ${ownObject('pg_type', 't.oid')}
        AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c')) LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO ${role}', item.name);
  END LOOP;
  FOR item IN SELECT p.oid::regprocedure AS name, p.prokind FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE p.proowner = superuser_oid AND ${appSchema('n.nspname')}
        AND ${ownObject('pg_proc', 'p.oid')} LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${role}', CASE item.prokind WHEN 'a' THEN 'AGGREGATE' ELSE 'ROUTINE' END, item.name);
  END LOOP;
END
$adopt$`;
}
