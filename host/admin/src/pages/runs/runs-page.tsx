import { Link } from 'react-router';
import { withQuery } from '../../api/api-client.ts';
import type { Page, Run } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { Pager } from '../../components/pager.tsx';
import { SortHeader } from '../../components/sort-header.tsx';
import { useListQuery } from '../../components/use-list-query.ts';
import { useWorkflowNames } from './use-workflow-names.ts';

/** Runs: live and test runs of workflows, newest first. */
export function RunsPage() {
  const list = useListQuery('-startedAt');
  const state = useApiData<Page<Run>>(withQuery('/api/runs', { sort: list.sort, limit: list.limit, offset: list.offset }));
  const names = useWorkflowNames();
  return (
    <section>
      <h1>Runs</h1>
      <LoadState state={state} isEmpty={(page) => page.total === 0} empty="No runs yet.">
        {(page) => (
          <>
            <table className="list">
              <thead>
                <tr>
                  <SortHeader field="startedAt" label="Started" sort={list.sort} onSort={(sort) => list.set({ sort })} />
                  <th>Workflow</th>
                  <th>Mode</th>
                  <SortHeader field="status" label="Status" sort={list.sort} onSort={(sort) => list.set({ sort })} />
                  <th>Owner</th>
                  <th>Trigger</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((run) => (
                  <tr key={run.id}>
                    <td>
                      <Link to={`/runs/${run.id}`}>{formatDate(run.startedAt)}</Link>
                    </td>
                    <td>
                      {names.get(run.workflowId) ?? run.workflowId} v{run.workflowVersion}
                    </td>
                    <td>{run.mode}</td>
                    <td className={`status-${run.status}`}>{run.status}</td>
                    <td>{run.ownerId}</td>
                    <td>{run.inboundEventId ? `event ${run.inboundEventId.slice(0, 8)}` : 'test run'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={list.offset} limit={list.limit} total={page.total} onChange={(offset) => list.set({ offset })} />
          </>
        )}
      </LoadState>
    </section>
  );
}
