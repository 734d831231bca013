import { useState } from 'react';
import { Link } from 'react-router';
import type { Page, Workflow, WorkflowVersion } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { RestoreVersionButton } from './restore-version-button.tsx';
import { VersionDiff } from './version-diff.tsx';

/**
 * The versions of a workflow, newest first: each opens in the editor, an older one can be
 * restored as a new version, and any two can be compared line by line.
 */
export function VersionsList({ workflow }: { workflow: Workflow }) {
  const state = useApiData<Page<WorkflowVersion>>(`/api/workflows/${workflow.id}/versions?limit=50`);
  return (
    <section aria-label="Versions">
      <h2>Versions</h2>
      <LoadState state={state} isEmpty={(page) => page.total === 0}>
        {(page) => (
          <>
            <ol className="versions" reversed>
              {page.items.map((version) => (
                <li key={version.version}>
                  {version.version === workflow.version ? (
                    <strong>v{version.version}</strong>
                  ) : (
                    <Link to={`/workflows/${workflow.id}?version=${version.version}`}>v{version.version}</Link>
                  )}{' '}
                  {formatDate(version.createdAt)} {version.createdBy ? `by ${version.createdBy}` : ''}
                  {version.version !== workflow.currentVersion && (
                    <>
                      {' · '}
                      <RestoreVersionButton workflow={workflow} version={version.version} />
                    </>
                  )}
                </li>
              ))}
            </ol>
            {page.items.length > 1 && <CompareVersions workflow={workflow} versions={page.items.map((item) => item.version)} />}
          </>
        )}
      </LoadState>
    </section>
  );
}

/** Two version pickers (default: the one before the viewed version, and the viewed one) and their diff. */
function CompareVersions({ workflow, versions }: { workflow: Workflow; versions: number[] }) {
  const older = versions.find((version) => version < workflow.version) ?? versions.at(-1)!;
  const [from, setFrom] = useState(older);
  const [to, setTo] = useState(workflow.version);
  const [shown, setShown] = useState(false);
  const picker = (label: string, value: number, set: (version: number) => void) => (
    <select aria-label={label} value={value} onChange={(e) => set(Number(e.target.value))}>
      {versions.map((version) => (
        <option key={version} value={version}>
          v{version}
        </option>
      ))}
    </select>
  );
  return (
    <details className="versions-diff" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
      <summary>Compare versions</summary>
      <p className="versions-compare">
        {picker('Older version', from, setFrom)} → {picker('Newer version', to, setTo)}
      </p>
      {shown && <VersionDiff workflowId={workflow.id} from={from} to={to} />}
    </details>
  );
}
