import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPackageInProcess } from '@bot-ai/api/check';
import { deliveryNames, readManifest } from './messenger-test-kit.ts';

test("the author kit's checks all pass on the built package with its fixtures", async () => {
  const report = await checkPackageInProcess(new URL('../../../plugins/bot-channel-messenger', import.meta.url).pathname);
  const failed = report.results.filter((result) => !result.ok).map((result) => `${result.name}: ${result.detail ?? ''}`);
  assert.deepEqual(failed, []);
  assert.equal(report.channel, 'messenger');
});

test('the fixtures hold the required deliveries: text, batch, media, postback, quick reply, location, each noise rule, a retry', () => {
  const required = ['text.json', 'batch.json', 'image.json', 'file.json', 'postback.json', 'quick-reply.json', 'location.json', 'text-retry.json'];
  const noise = ['echo.json', 'delivery.json', 'read.json', 'reaction.json', 'optin.json', 'referral.json', 'other-page.json'];
  const names = deliveryNames();
  for (const name of [...required, ...noise]) assert.ok(names.includes(name), name);
  const manifest = readManifest();
  assert.equal(manifest.replyTo, 'text.json');
  assert.equal(manifest.settings.api_base_url, '{{platform}}');
  assert.deepEqual(manifest.signature, { scheme: 'hmac-sha256', header: 'x-hub-signature-256', prefix: 'sha256=', setting: 'app_secret', signedContent: '{body}' });
});
