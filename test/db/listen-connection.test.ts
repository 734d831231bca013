/**
 * Every listener of a database handle shares one connection: the inbox, the two caches, channel
 * changes and web chat replies held five beside the pool. Each still hears only its channel, and
 * a lost connection is re-opened for all of them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { LISTEN_APPLICATION_NAME } from '../../host/db/listen-connection.ts';
import { PgListener } from '../../host/db/pg-listener.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { eventually } from '../support/change-notices.ts';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase({ migrate: false });
});
after(() => database.close());

const CHANNELS = ['bot_test_one', 'bot_test_two', 'bot_test_three'];

interface Heard {
  notices: string[];
  lost: number;
  reconnected: number;
}

function listenerOn(channel: string, heard: Heard): PgListener {
  return new PgListener({
    db: database.db,
    channel,
    label: channel,
    logger: pino({ level: 'silent' }),
    reconnectDelayMs: 20,
    onNotice: (payload) => heard.notices.push(payload ?? ''),
    onLost: () => heard.lost++,
    onReconnected: () => heard.reconnected++,
  });
}

async function listeningConnections(): Promise<number> {
  const { rows } = await database.db.raw<{ rows: unknown[] }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?', [LISTEN_APPLICATION_NAME]);
  return rows.length;
}

const notify = (channel: string, payload: string) => database.db.raw('SELECT pg_notify(?, ?)', [channel, payload]);

test('listeners on several channels share one connection, each hears its own channel, and the last one closes it', async () => {
  const heard = CHANNELS.map((): Heard => ({ notices: [], lost: 0, reconnected: 0 }));
  const listeners = CHANNELS.map((channel, index) => listenerOn(channel, heard[index]!));
  await Promise.all(listeners.map((listener) => listener.start()));
  assert.equal(await listeningConnections(), 1);
  for (const channel of CHANNELS) await notify(channel, `to ${channel}`);
  await eventually(() => heard.every((entry) => entry.notices.length === 1), 'each listener heard one notice');
  assert.deepEqual(heard.map((entry) => entry.notices), CHANNELS.map((channel) => [`to ${channel}`]));

  await listeners[0]!.close();
  await notify(CHANNELS[0]!, 'after its listener closed');
  await notify(CHANNELS[1]!, 'still heard');
  await eventually(() => heard[1]!.notices.length === 2, 'the second listener heard on');
  assert.equal(heard[0]!.notices.length, 1, 'a closed listener hears nothing');
  await Promise.all(listeners.slice(1).map((listener) => listener.close()));
  for (const deadline = Date.now() + 5_000; (await listeningConnections()) > 0; ) {
    assert.ok(Date.now() < deadline, 'the connection closed with its last listener');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

test('a lost connection is re-opened for every listener, each told, each hearing again', async () => {
  const heard = CHANNELS.map((): Heard => ({ notices: [], lost: 0, reconnected: 0 }));
  const listeners = CHANNELS.map((channel, index) => listenerOn(channel, heard[index]!));
  await Promise.all(listeners.map((listener) => listener.start()));
  try {
    await database.db.raw('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?', [LISTEN_APPLICATION_NAME]);
    await eventually(() => heard.every((entry) => entry.lost === 1 && entry.reconnected === 1), 'every listener lost and regained the connection');
    assert.equal(await listeningConnections(), 1);
    for (const channel of CHANNELS) await notify(channel, 'after reconnecting');
    await eventually(() => heard.every((entry) => entry.notices.includes('after reconnecting')), 'each listener hears its channel again');
  } finally {
    await Promise.all(listeners.map((listener) => listener.close()));
  }
});
