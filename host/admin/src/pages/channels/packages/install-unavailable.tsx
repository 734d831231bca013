import type { ChannelPackageList } from '../../../api/api-types.ts';

/** Why the install form is disabled, when it is: a channels file, the role, or BOT_CHANNEL_INSTALL=off. */
export function InstallUnavailable({ policy, canInstall, declarative }: { policy: ChannelPackageList['policy'] | undefined; canInstall: boolean; declarative: boolean }) {
  if (declarative) return <p className="notice">The packages are declared in a file on this host (BOT_CHANNELS_FILE): change the file and restart to change them; this page is read-only.</p>;
  if (!canInstall) return <p className="notice">Your role cannot install or remove channel packages (that takes channel:install): this page is read-only.</p>;
  if (policy === 'off') return <p className="notice">Installing is turned off on this host (BOT_CHANNEL_INSTALL=off): installed packages can still be removed.</p>;
  return null;
}
