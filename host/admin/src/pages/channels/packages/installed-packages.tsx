import type { ChannelPackageList } from '../../../api/api-types.ts';
import type { ApiData } from '../../../api/use-api-data.ts';
import { formatDate } from '../../../components/format-date.ts';
import { LoadState } from '../../../components/load-state.tsx';
import { EgressHosts } from './egress-hosts.tsx';
import { RemovePackageButton } from './remove-package-button.tsx';
import { RollbackPackageButton } from './rollback-package-button.tsx';
import { TrustStatus } from './trust-status.tsx';

/** The packages the host installed, each with its tarball's integrity and trust, Roll back and Remove. */
export function InstalledPackages({ state, canChange, onChanged }: { state: ApiData<ChannelPackageList>; canChange: boolean; onChanged: () => void }) {
  return (
    <LoadState state={state} isEmpty={(list) => list.total === 0} empty="The host has installed no channel package.">
      {(list) => (
        <table className="list" aria-label="Installed packages">
          <thead>
            <tr>
              <th>Package</th>
              <th>Version</th>
              <th>Trust</th>
              <th>Integrity</th>
              <th>Installed</th>
              <th>Egress hosts</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.items.map((installed) => (
              <tr key={installed.name} data-package={installed.name}>
                <td>
                  <strong>{installed.name}</strong>
                </td>
                <td>{installed.version}</td>
                <td>
                  <TrustStatus trust={installed.trust} />
                </td>
                <td>
                  <code className="integrity" title={installed.integrity}>
                    {installed.integrity.slice(0, 22)}…
                  </code>
                </td>
                <td>
                  {installed.installedBy}, {formatDate(installed.installedAt)}
                </td>
                <td>
                  <EgressHosts hosts={installed.manifest.egress} />
                </td>
                <td>
                  {installed.previousVersion && <RollbackPackageButton installed={installed} disabled={!canChange} onRolledBack={onChanged} />}
                  <RemovePackageButton installed={installed} disabled={!canChange} onRemoved={onChanged} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </LoadState>
  );
}
