import type { ChannelPackageAuditEntry } from '../../../api/api-types.ts';
import type { ApiData } from '../../../api/use-api-data.ts';
import { formatDate } from '../../../components/format-date.ts';
import { LoadState } from '../../../components/load-state.tsx';

/** Every install, upgrade and removal, newest first; a refused one shows the code that refused it. */
export function PackageAudit({ state }: { state: ApiData<{ items: ChannelPackageAuditEntry[] }> }) {
  return (
    <LoadState state={state} isEmpty={(audit) => audit.items.length === 0} empty="Nothing installed or removed yet.">
      {(audit) => (
        <table className="list" aria-label="Audit">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>Action</th>
              <th>Package</th>
              <th>Outcome</th>
            </tr>
          </thead>
          <tbody>
            {audit.items.map((entry, index) => (
              <tr key={index} data-outcome={entry.outcome}>
                <td>{formatDate(entry.at)}</td>
                <td>{entry.actor}</td>
                <td>{entry.action}</td>
                <td>{entry.version ? `${entry.name}@${entry.version}` : entry.name}</td>
                <td className={entry.outcome === 'ok' ? undefined : 'status-rejected'}>
                  {entry.outcome === 'ok' ? 'ok' : <code>{entry.outcome}</code>} {entry.outcome === 'ok' ? null : entry.message}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </LoadState>
  );
}
