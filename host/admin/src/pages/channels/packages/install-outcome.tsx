import { Link } from 'react-router';
import type { ChannelPackageInstall } from '../../../api/api-types.ts';

/** What an install made: the package, and what discovery made of its channel on this instance. */
export function InstallOutcome({ outcome }: { outcome: ChannelPackageInstall }) {
  const { package: installed, channel } = outcome;
  const id = `${installed.name}@${installed.version}`;
  if (channel.status === 'rejected') {
    return (
      <div className="refusal" role="alert" data-channel-status="rejected">
        <strong>Installed {id}, but discovery rejected its channel here</strong>
        <p>
          <code className="error-code">{channel.code}</code>
        </p>
        <p className="error-message">{channel.message}</p>
      </div>
    );
  }
  return (
    <p className="notice" role="status" data-channel-status={channel.status}>
      {describe(id, channel)} <Link to="/channels">See it on the Channels page</Link>.
    </p>
  );
}

function describe(id: string, channel: ChannelPackageInstall['channel']): string {
  if (channel.status === 'registered') return `Installed ${id}: its channel "${channel.name}" is registered.`;
  if (channel.status === 'disabled') return `Installed ${id}: its channel "${channel.name}" is registered but disabled.`;
  return `Installed ${id}, but this instance has not found its channel yet.`;
}
