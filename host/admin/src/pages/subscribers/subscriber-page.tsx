import { Link, useParams } from 'react-router';
import type { Subscriber } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { DeleteButton } from '../../components/delete-button.tsx';
import { formatDate } from '../../components/format-date.ts';
import { LoadState } from '../../components/load-state.tsx';
import { SubscriberMemory } from './subscriber-memory.tsx';

/** One subscriber: who they are on which channel, their runs, their memory, and erasing them. */
export function SubscriberPage() {
  const { id } = useParams();
  const state = useApiData<Subscriber>(`/api/subscribers/${id}`);
  return (
    <section>
      <p>
        <Link to="/subscribers">← Subscribers</Link>
      </p>
      <LoadState state={state}>
        {(subscriber) => (
          <>
            <header className="page-header">
              <h1>{subscriber.displayName}</h1>
              <DeleteButton
                path={`/api/subscribers/${subscriber.id}`}
                permission="subscriber:delete"
                after="/subscribers"
                title={`Erase ${subscriber.displayName}?`}
              >
                <p>Their memory, conversations, message history and runs are deleted for good (right to be forgotten).</p>
              </DeleteButton>
            </header>
            <dl className="facts">
              <dt>Channel</dt>
              <dd>{subscriber.channel ?? 'unknown (source deleted)'}</dd>
              <dt>Platform id</dt>
              <dd>
                <code>{subscriber.foreignId}</code>
              </dd>
              <dt>Subscriber id</dt>
              <dd>
                <code>{subscriber.id}</code>
              </dd>
              <dt>First seen / updated</dt>
              <dd>
                {formatDate(subscriber.createdAt)} / {formatDate(subscriber.updatedAt)}
              </dd>
              <dt>Runs</dt>
              <dd>
                <Link to={`/runs?ownerId=${subscriber.id}`}>Runs of {subscriber.displayName}</Link>
              </dd>
            </dl>
            <SubscriberMemory ownerId={subscriber.id} />
          </>
        )}
      </LoadState>
    </section>
  );
}
