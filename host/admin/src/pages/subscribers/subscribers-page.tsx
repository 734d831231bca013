import { Link } from 'react-router';
import type { Subscriber } from '../../api/api-types.ts';
import { formatDate } from '../../components/format-date.ts';
import { ListTable, type Column } from '../../components/list-table.tsx';
import { useList } from '../../components/use-list.ts';

const COLUMNS: Column[] = [{ label: 'Name', sortBy: 'firstName' }, 'Channel', 'Platform id', { label: 'First seen', sortBy: 'createdAt' }];

/** Subscribers: the people the bots talk to, newest first, searched by name or id. */
export function SubscribersPage() {
  const list = useList<Subscriber>('/api/subscribers', { sort: '-createdAt' });
  return (
    <section>
      <h1>Subscribers</h1>
      <input
        type="search"
        aria-label="Search subscribers"
        placeholder="Search name or id"
        defaultValue={list.q}
        onChange={(e) => list.set({ q: e.target.value })}
      />
      <ListTable list={list} empty={list.q ? `No subscriber matches "${list.q}".` : 'No subscribers yet.'} columns={COLUMNS}>
        {(subscriber) => (
          <tr key={subscriber.id}>
            <td>
              <Link to={`/subscribers/${subscriber.id}`}>{subscriber.displayName}</Link>
            </td>
            <td>{subscriber.channel ?? '—'}</td>
            <td>
              <code>{subscriber.foreignId}</code>
            </td>
            <td>{formatDate(subscriber.createdAt)}</td>
          </tr>
        )}
      </ListTable>
    </section>
  );
}
