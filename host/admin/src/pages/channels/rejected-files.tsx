import type { ChannelDiagnostic, Page } from '../../api/api-types.ts';
import type { ApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';

/** The discovered files discovery refused, each with its code and reason. */
export function RejectedFiles({ state }: { state: ApiData<Page<ChannelDiagnostic>> }) {
  const rejected = (page: Page<ChannelDiagnostic>) => page.items.filter((entry) => entry.status === 'rejected');
  return (
    <LoadState state={state} isEmpty={(page) => rejected(page).length === 0} empty="No rejected files.">
      {(page) => (
        <table className="list">
          <thead>
            <tr>
              <th>File</th>
              <th>Package</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {rejected(page).map((entry) => (
              <tr key={entry.file}>
                <td>
                  <code>{entry.file}</code>
                </td>
                <td>{entry.package ? `${entry.package.name}@${entry.package.version}` : '—'}</td>
                <td className="status-rejected">
                  <code>{entry.code}</code> {entry.message}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </LoadState>
  );
}
