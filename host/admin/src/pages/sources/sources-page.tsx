import { Link } from 'react-router';
import { withQuery } from '../../api/api-client.ts';
import type { Page, Source } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { useSession } from '../../auth/session-context.tsx';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { Pager } from '../../components/pager.tsx';
import { SortHeader } from '../../components/sort-header.tsx';
import { useListQuery } from '../../components/use-list-query.ts';
import { CopyField } from './copy-field.tsx';

/** Sources: configured instances of channels, each with its webhook URL. */
export function SourcesPage() {
  const { can } = useSession();
  const list = useListQuery('name');
  const state = useApiData<Page<Source>>(withQuery('/api/sources', { q: list.q, sort: list.sort, limit: list.limit, offset: list.offset }));
  return (
    <section>
      <header className="page-header">
        <h1>Sources</h1>
        {can('source:create') ? (
          <Link className="button" to="/sources/new">
            New source
          </Link>
        ) : (
          <button type="button" disabled>
            New source
          </button>
        )}
      </header>
      <input type="search" aria-label="Search sources" placeholder="Search" defaultValue={list.q} onChange={(e) => list.set({ q: e.target.value })} />
      <LoadState state={state} isEmpty={(page) => page.total === 0} empty="No sources yet.">
        {(page) => (
          <>
            <table className="list">
              <thead>
                <tr>
                  <SortHeader field="name" label="Name" sort={list.sort} onSort={(sort) => list.set({ sort })} />
                  <th>Channel</th>
                  <th>Active</th>
                  <th>Webhook URL</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((source) => (
                  <tr key={source.id}>
                    <td>
                      <Link to={`/sources/${source.id}`}>{source.name}</Link>
                    </td>
                    <td>{source.channel}</td>
                    <td>{source.active ? 'active' : 'inactive'}</td>
                    <td>
                      <CopyField value={source.webhookUrl} label={`Webhook URL of ${source.name}`} />
                    </td>
                    <td>{formatDate(source.updatedAt)}</td>
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
