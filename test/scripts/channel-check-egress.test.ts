/**
 * `npm run channel:check` on a package nobody vetted yet: its fixtures are the package's own, so
 * they must not give its code more reach than a runner gets in the host. There, an `x-egress`
 * setting widens a channel's egress (to any address, loopback included) only once an operator has
 * saved it; in the kit, only the settings that point at the kit's fake platform may. The prober
 * fixture sets an endpoint setting to a loopback port of the checking machine and fetches it in
 * decode; its recorded delivery expects the host's refusal (BOT_ERR_EGRESS_HOST_NOT_ALLOWED),
 * where a granted origin would have been tried (BOT_ERR_EGRESS_FAILED: the connection was made).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROBER = 'test/fixtures/channel-packages/bot-channel-prober';

async function channelCheck(target: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/channel-check.ts', target], { cwd: ROOT, timeout: 120_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

test("a package's own fixtures cannot point its egress at the checking machine: only the fake platform's origin is granted", async () => {
  const { code, output } = await channelCheck(PROBER);
  assert.match(output, /^ok {4}probe\.json: A message, during whose decode/m, output);
  assert.doesNotMatch(output, /refused BOT_ERR_EGRESS_FAILED|reached \d+/, output);
  // The fake platform stays reachable: the sends through api_base_url ({{platform}}) pass.
  assert.match(output, /^ok {4}.*send/m, output);
  assert.equal(code, 0, output);
});
