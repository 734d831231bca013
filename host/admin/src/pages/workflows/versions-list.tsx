import { Link } from 'react-router';
import type { Page, Workflow, WorkflowVersion } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';

/** The versions of a workflow, newest first; each opens that version in the editor. */
export function VersionsList({ workflow }: { workflow: Workflow }) {
  const state = useApiData<Page<WorkflowVersion>>(`/api/workflows/${workflow.id}/versions?limit=50`);
  return (
    <section aria-label="Versions">
      <h2>Versions</h2>
      <LoadState state={state} isEmpty={(page) => page.total === 0}>
        {(page) => (
          <ol className="versions" reversed>
            {page.items.map((version) => (
              <li key={version.version}>
                {version.version === workflow.version ? (
                  <strong>v{version.version}</strong>
                ) : (
                  <Link to={`/workflows/${workflow.id}?version=${version.version}`}>v{version.version}</Link>
                )}{' '}
                {formatDate(version.createdAt)} {version.createdBy ? `by ${version.createdBy}` : ''}
              </li>
            ))}
          </ol>
        )}
      </LoadState>
    </section>
  );
}
