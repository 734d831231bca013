import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codesWhere } from '../../host/errors/codes-where.ts';
import type { ErrorCodeClass } from '../../host/errors/error-code-entry.ts';

/**
 * The members of each class, written out: the contract of the table's flags. Each class was a
 * string set kept by hand in the module that reads it; a change here changes that behaviour.
 */
const CLASSES: Record<ErrorCodeClass, { readBy: string; members: string[] }> = {
  notDelivered: {
    readBy: 'host/outbox/live-outbox.ts: a send that failed with one of these is "failed", not "uncertain"',
    members: [
      'BOT_ERR_CHANNEL_PLATFORM_STATUS',
      'BOT_ERR_CHANNEL_UNSUPPORTED_FORMAT',
      'BOT_ERR_CHANNEL_UNAVAILABLE',
      'BOT_ERR_PLUGIN_QUEUE_FULL',
      'BOT_ERR_PLUGIN_SANDBOX_CLOSED',
      'BOT_ERR_PLUGIN_SEND_NOT_STARTED',
      'BOT_ERR_PLUGIN_RUNNER_DOWN',
      'BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE',
    ],
  },
  hostOnly: {
    readBy: 'host/channels/runner/runner-process.ts: a runner answering with one of these is re-coded BOT_ERR_PLUGIN_THREW',
    members: [
      'BOT_ERR_PLUGIN_SEND_NOT_STARTED',
      'BOT_ERR_PLUGIN_RUNNER_DOWN',
      'BOT_ERR_PLUGIN_SANDBOX_CLOSED',
      'BOT_ERR_PLUGIN_QUEUE_FULL',
      'BOT_ERR_PLUGIN_ISOLATION_UNAVAILABLE',
    ],
  },
  sandboxClosing: {
    readBy: 'host/channels/channel-registry.ts: a call that met one of these is tried on the replacement sandbox',
    members: ['BOT_ERR_PLUGIN_SANDBOX_CLOSED'],
  },
  egressRefusal: {
    readBy: 'host/egress/channel-egress.ts: a refusal with one of these is logged',
    members: ['BOT_ERR_EGRESS_HOST_NOT_ALLOWED', 'BOT_ERR_EGRESS_ADDRESS_NOT_PUBLIC', 'BOT_ERR_EGRESS_HOST_SELF', 'BOT_ERR_EGRESS_REDIRECT_REFUSED'],
  },
  passingState: {
    readBy: 'host/http/error-middleware.ts: a 5xx with one of these is one warning line, not an error with its stack',
    members: ['BOT_ERR_HEALTH_NOT_READY', 'BOT_ERR_SOURCE_CHANNEL_UNAVAILABLE', 'BOT_ERR_WEBHOOK_CHANNEL_UNAVAILABLE'],
  },
};

for (const [flag, { readBy, members }] of Object.entries(CLASSES) as [ErrorCodeClass, (typeof CLASSES)[ErrorCodeClass]][]) {
  test(`the table's ${flag} codes are exactly the ones ${readBy.split(':')[0]} relies on`, () => {
    assert.deepEqual([...codesWhere(flag)].sort(), [...members].sort(), readBy);
  });
}

test('every code a runner may not raise itself is one after which a send surely did not happen', () => {
  const notDelivered = codesWhere('notDelivered');
  for (const code of codesWhere('hostOnly')) assert.ok(notDelivered.has(code), code);
});
