/**
 * `npm run sample:send -- "<text>" [--url <host>] [--source <ref>] [--secret <secret>]
 * [--from <user id>] [--name <first name>]`: signs one sample-platform event and posts it to a
 * source's webhook, as the platform would, then says what the answer means. The defaults name
 * the sample source `npm start` seeds on the embedded default, so no token is needed.
 */
import { parseArgs } from 'node:util';
import { SAMPLE_DEMO_SOURCE } from '../host/seed/sample-demo-source.ts';
import { signedSampleEvent } from './sample/sample-event.ts';
import { webhookStatusMeaning } from './sample/webhook-status-meaning.ts';
import { readOptionsOrExit } from './sample/read-options-or-exit.ts';

const USAGE = 'usage: npm run sample:send -- "<text>" [--url http://127.0.0.1:3000] [--source <ref>] [--secret <webhook secret>] [--from user-1] [--name Ada]';

function readOptions() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      source: { type: 'string', default: SAMPLE_DEMO_SOURCE.ref },
      secret: { type: 'string', default: SAMPLE_DEMO_SOURCE.webhookSecret },
      from: { type: 'string', default: 'user-1' },
      name: { type: 'string', default: 'Ada' },
    },
  });
  if (positionals.length !== 1 || positionals[0] === '') throw new Error('give the message text, in quotes, once');
  return { ...values, text: positionals[0]! };
}

const options = readOptionsOrExit(readOptions, USAGE);

const webhookUrl = `${options.url.replace(/\/+$/, '')}/api/webhook/${encodeURIComponent(options.source)}`;
const { body, signature } = signedSampleEvent(options, options.secret);
try {
  const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bot-signature': signature }, body });
  console.log(`POST ${webhookUrl} → HTTP ${response.status}: ${webhookStatusMeaning(response.status)}`);
  process.exitCode = response.status === 200 ? 0 : 1;
} catch (error) {
  // fetch says only "fetch failed"; the reason (ECONNREFUSED, a bad port) is in its cause.
  const { cause, message } = error as Error;
  console.error(`could not reach ${webhookUrl} (${cause instanceof Error ? cause.message : message}): is npm start running there?`);
  process.exitCode = 1;
}
