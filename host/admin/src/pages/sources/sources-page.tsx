import { Link } from 'react-router';
import type { Source } from '../../api/api-types.ts';
import { CreateLink } from '../../components/create-link.tsx';
import { formatDate } from '../../components/format-date.ts';
import { ListTable } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';
import { SourceLink } from './source-link.tsx';
import { UnansweredWarning } from './unanswered-warning.tsx';

/** Sources: configured instances of channels, each with its webhook URL or chat link. */
export function SourcesPage() {
  const list = useList<Source>('/api/sources', { sort: 'name' });
  return (
    <section>
      <header className="page-header">
        <h1>Sources</h1>
        <CreateLink to="/sources/new" permission="source:create">
          New source
        </CreateLink>
      </header>
      <input type="search" aria-label="Search sources" placeholder="Search" defaultValue={list.q} onChange={(e) => list.set({ q: e.target.value })} />
      <ListTable list={list} empty="No sources yet." columns={[{ label: 'Name', sortBy: 'name' }, 'Channel', 'Active', 'Webhook URL or chat', 'Updated']}>
        {(source) => (
          <tr key={source.id}>
            <td>
              <Link to={`/sources/${source.id}`}>{source.name}</Link>
              <UnansweredWarning source={source} />
            </td>
            <td>{source.channel}</td>
            <td>{source.active ? 'active' : 'inactive'}</td>
            <td>
              <SourceLink source={source} label={` of ${source.name}`} />
            </td>
            <td>{formatDate(source.updatedAt)}</td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}
