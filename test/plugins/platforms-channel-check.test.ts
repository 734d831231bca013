/**
 * The four real-platform packages pass the author kit: in process (as a third party runs it, with
 * `bot-channel-check`) and through the host (`npm run channel:check`: discovery, the sandbox, the
 * host's egress rules), with every delivery recorded in their fixtures.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { checkPackageInProcess, formatCheckReport } from '@bot-ai/api/check';

const PLATFORMS = ['telegram', 'whatsapp', 'messenger', 'slack'];
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

for (const platform of PLATFORMS) {
  const folder = `plugins/bot-channel-${platform}`;

  test(`bot-channel-${platform} passes every check of the author kit in process`, async () => {
    const report = await checkPackageInProcess(`${ROOT}/${folder}`);
    assert.equal(report.ok, true, formatCheckReport(report));
    assert.equal(report.channel, platform);
  });

  test(`bot-channel-${platform} passes npm run channel:check, in its sandbox`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/channel-check.ts', folder], { cwd: ROOT, timeout: 120_000 }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      assert.fail(`channel:check failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
    });
    assert.match(stdout, /^ok {4}starts in its sandbox/m);
    assert.match(stdout, new RegExp(`channel "${platform}": all \\d+ checks passed`));
  });
}
