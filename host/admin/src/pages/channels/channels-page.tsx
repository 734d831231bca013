import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { Channel, ChannelDiagnostic, Page, RescanReport } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { useSession } from '../../auth/session-context.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { ChannelRow } from './channel-row.tsx';
import { RejectedFiles } from './rejected-files.tsx';

/** Channels: what discovery registered (enable/disable), what it rejected and why, and rescan. */
export function ChannelsPage() {
  const { can } = useSession();
  const channels = useApiData<Page<Channel>>('/api/channel');
  const diagnostics = useApiData<Page<ChannelDiagnostic>>('/api/channel/diagnostics');
  const [rescan, setRescan] = useState<{ busy: boolean; report?: RescanReport; error?: string }>({ busy: false });
  const reload = () => {
    channels.reload();
    diagnostics.reload();
  };
  const runRescan = async () => {
    setRescan({ busy: true });
    try {
      setRescan({ busy: false, report: await api.post<RescanReport>('/api/channel/rescan') });
      reload();
    } catch (error) {
      setRescan({ busy: false, error: errorMessage(error) });
    }
  };
  return (
    <section>
      <header className="page-header">
        <h1>Channels</h1>
        <span className="actions">
          <Link className="button" to="/channels/packages">
            Install a package
          </Link>
          <button type="button" disabled={!can('channel:update') || rescan.busy} onClick={runRescan}>
            {rescan.busy ? 'Rescanning…' : 'Rescan'}
          </button>
        </span>
      </header>
      {rescan.report && <p className="notice" role="status">{describeRescan(rescan.report)}</p>}
      {rescan.error && <p className="error" role="alert">{rescan.error}</p>}
      <h2>Registered</h2>
      <LoadState state={channels} isEmpty={(page) => page.total === 0} empty="No channel is registered.">
        {(page) => (
          <table className="list">
            <thead>
              <tr>
                <th>Name</th>
                <th>Origin</th>
                <th>Isolation</th>
                <th>Package</th>
                <th>Capabilities</th>
                <th>Enabled</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((channel) => (
                <ChannelRow key={channel.name} channel={channel} canUpdate={can('channel:update')} onChanged={reload} />
              ))}
            </tbody>
          </table>
        )}
      </LoadState>
      <h2>Rejected files</h2>
      <RejectedFiles state={diagnostics} />
    </section>
  );
}

function describeRescan(report: RescanReport): string {
  const parts = [
    report.added.length > 0 && `added ${report.added.join(', ')}`,
    report.removed.length > 0 && `removed ${report.removed.join(', ')}`,
    report.upgraded.length > 0 && `upgraded ${report.upgraded.map((u) => `${u.name} ${u.from} → ${u.to}`).join(', ')}`,
    report.rejected.length > 0 && `rejected ${report.rejected.length} file(s)`,
  ].filter(Boolean);
  return parts.length > 0 ? `Rescan: ${parts.join('; ')}.` : 'Rescan: nothing changed.';
}
