import { useState } from 'react';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { Channel } from '../../api/api-types.ts';

/** What each isolation tier means, shown on hover. */
const ISOLATION_HINTS: Record<NonNullable<Channel['isolation']> | 'none', string> = {
  sandbox: 'Runs in its own process inside a bubblewrap sandbox under a seccomp filter: no host files, no network but the host-checked egress, no other process.',
  reduced: 'Runs in its own process with the permission model only (bubblewrap is unavailable here); see the channel diagnostics for why.',
  builtin: 'Trusted code shipped inside the SDK; runs in host worker threads.',
  none: 'Not running.',
};

/** One registered channel with its enabled switch (hot: no restart). */
export function ChannelRow({ channel, canUpdate, onChanged }: { channel: Channel; canUpdate: boolean; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const toggle = async (enabled: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await api.post(`/api/channel/${encodeURIComponent(channel.name)}/${enabled ? 'enable' : 'disable'}`);
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-channel={channel.name}>
      <td>
        <strong>{channel.name}</strong> <small>({channel.kind})</small>
      </td>
      <td>{channel.origin}</td>
      <td data-isolation={channel.isolation ?? ''} title={ISOLATION_HINTS[channel.isolation ?? 'none']}>
        {channel.isolation ?? '—'}
      </td>
      <td>{channel.package ? `${channel.package.name}@${channel.package.version}` : '—'}</td>
      <td>
        {Object.entries(channel.capabilities)
          .filter(([, value]) => value !== false)
          .map(([name, value]) => (
            <span key={name} className="tag" title={typeof value === 'object' ? JSON.stringify(value) : undefined}>
              {typeof value === 'number' || typeof value === 'string' ? `${name}: ${value}` : name}
            </span>
          ))}
      </td>
      <td>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-label={`Enable ${channel.name}`}
            checked={channel.enabled}
            disabled={!canUpdate || busy}
            onChange={(event) => toggle(event.target.checked)}
          />
          {channel.enabled ? (channel.running ? 'enabled' : 'enabled, not running') : 'disabled'}
        </label>
        {channel.error && <span className="field-error">{channel.error.message}</span>}
        {error && <span className="field-error" role="alert">{error}</span>}
      </td>
    </tr>
  );
}
