import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { linkTargetRefusal, type LinkPolicy } from '../runner/link-policy.ts';
import { PluginRejection } from './plugin-rejection.ts';

/** Entries looked at in one plugin's files at most: a package with more is refused, not half-checked. */
const MAX_ENTRIES = 200_000;

/**
 * Refuses a plugin whose own files hold a link leading outside them, unless it leads to a package
 * its runner may read anyway (link-policy.ts): a link to `/etc`, the host's source, the data
 * directory or another channel (whatever the link is named) is how a package would widen what
 * its runner reads. Dangling links lead nowhere and are left alone: the runner's binds are
 * decided again, on real paths, when it starts.
 */
export async function checkPluginLinks(policy: LinkPolicy): Promise<void> {
  const root = policy.ownRoot;
  if (!(await lstat(root)).isDirectory()) return;
  let seen = 0;
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (++seen > MAX_ENTRIES) throw new PluginRejection('BOT_ERR_PLUGIN_LINK_OUTSIDE', `${root} holds more than ${MAX_ENTRIES} files to check for links`);
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isSymbolicLink()) await checkLink(full, policy);
    }
  }
}

async function checkLink(link: string, policy: LinkPolicy): Promise<void> {
  const real = await realpath(link).catch(() => undefined);
  if (real === undefined) return;
  const refusal = linkTargetRefusal(real, policy);
  if (refusal === undefined) return;
  const relative = path.relative(policy.ownRoot, link);
  throw new PluginRejection('BOT_ERR_PLUGIN_LINK_OUTSIDE', `The link ${relative} leads outside the plugin (to ${real}): ${refusal}`);
}
