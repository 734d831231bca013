/**
 * A plugin opens no network connection of its own — not to a listener of the host's
 * machine, not to its PostgreSQL, not by UDP, not to an abstract Unix socket. (Its only way out
 * is the SDK's egress client, which the host performs and checks.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { assertRefused, assertServing, attack, BYSTANDER_PACKAGE, countingListener, HOSTILE_PACKAGE, startChannel } from './hostile-runner.ts';

/** Time for a packet already sent to arrive on loopback; nothing is expected to. */
const ARRIVAL_MS = 300;

test("a plugin reaches no TCP listener on the host's loopback, by net.connect or fetch", async (t) => {
  const [hostile, bystander] = await Promise.all([startChannel(t, HOSTILE_PACKAGE), startChannel(t, BYSTANDER_PACKAGE)]);
  const server = await countingListener(t, { port: 0, host: '127.0.0.1' });
  assertRefused(await attack(hostile, { attack: 'net-connect', host: '127.0.0.1', port: server.port }), 'net.connect');
  assertRefused(await attack(hostile, { attack: 'fetch', url: `http://127.0.0.1:${server.port}/` }), 'fetch');
  await sleep(ARRIVAL_MS);
  assert.equal(server.connections(), 0, 'the listener got a connection');
  await assertServing(bystander);
});

test("a plugin reaches no abstract Unix socket of the host's", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const name = `\0bot-test-${randomUUID()}`;
  const server = await countingListener(t, { path: name });
  assertRefused(await attack(hostile, { attack: 'net-connect', path: name }), 'connecting to an abstract socket');
  await sleep(ARRIVAL_MS);
  assert.equal(server.connections(), 0, 'the abstract socket got a connection');
});

test("a plugin's UDP datagram never reaches the host's loopback", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const socket = dgram.createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (message) => received.push(message));
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  t.after(() => socket.close());
  // Sending into its own empty network is harmless; it must not arrive here. The permission
  // model may refuse the socket with an 'error' event the plugin leaves unhandled, which ends its
  // runner: contained too.
  await attack(hostile, { attack: 'udp-send', host: '127.0.0.1', port: socket.address().port, message: 'leak' }).catch((error: { code?: string }) =>
    assert.equal(error.code, 'BOT_ERR_PLUGIN_WORKER_CRASHED'),
  );
  await sleep(ARRIVAL_MS);
  assert.deepEqual(received, []);
});

test("a plugin cannot log in to the host's PostgreSQL", async (t) => {
  const hostile = await startChannel(t, HOSTILE_PACKAGE);
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const outcome = await attack(hostile, { attack: 'postgres', url });
  assertRefused(outcome, 'logging in to PostgreSQL');
});
