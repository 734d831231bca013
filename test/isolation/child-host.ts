/**
 * A host of its own, in a child process, for the attacks that aim at the host process itself (a
 * test process that died of one could not report it): starts the hostile channel in its sandbox,
 * sends the attacks given as JSON in argv[2], then checks the channel serves again. Prints one
 * JSON line per attack, then `{ alive, baselineRssMb, peakRssMb }`: what a test reads.
 *
 * Run: node --import tsx test/isolation/child-host.ts '[{"attack":"echo"}]'
 */
import { sandboxLoader } from '../../host/channels/load-channel-in-sandbox.ts';
import { webhookRequest } from '../channels/builtin-pool/fixture-pool.ts';
import { channelSettings, HOSTILE_PACKAGE, SOURCE, waitFor } from './hostile-runner.ts';

const attacks = JSON.parse(process.argv[2] ?? '[]') as Array<Record<string, unknown>>;
const print = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const rssMb = () => Math.round(process.memoryUsage.rss() / 1024 / 1024);

const file = `${HOSTILE_PACKAGE}/dist/index.channel.js`;
const channel = await sandboxLoader(channelSettings())({ file, realFile: file, origin: 'package' });
const baselineRssMb = rssMb();
let peakRssMb = baselineRssMb;
const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb())), 50);

for (const body of attacks) {
  try {
    const result = await channel.sandbox.receiveWebhook(webhookRequest(body), SOURCE);
    const report = result.outcome === 'accepted' ? (result.events[0]?.message?.data as { text?: unknown } | undefined)?.text : undefined;
    print({ attack: body.attack, outcome: result.outcome, report });
  } catch (error) {
    print({ attack: body.attack, code: (error as { code?: string }).code });
  }
}
// A runner the attack ended is restarted: the channel serves again once its replacement runs.
const serves = () =>
  channel.sandbox.receiveWebhook(webhookRequest({ attack: 'echo' }), SOURCE).then(
    (result) => result.outcome === 'accepted',
    () => false,
  );
await waitFor('the channel serves again', serves);
clearInterval(sampler);
print({ alive: true, baselineRssMb, peakRssMb, restarts: channel.status().restarts });
await channel.close();
