import { useParams } from 'react-router';
import type { Channel, Page, Source, WorkflowSummary } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';
import { SourceForm } from './source-form.tsx';

/** Create (`/sources/new`) or edit (`/sources/:id`) a source, with what its form needs loaded. */
export function SourceFormPage() {
  const { id } = useParams();
  const isNew = !id || id === 'new';
  const source = useApiData<Source>(isNew ? null : `/api/sources/${id}`);
  const channels = useApiData<Page<Channel>>('/api/channel');
  const workflows = useApiData<Page<WorkflowSummary>>('/api/workflows?limit=200');
  return (
    <LoadState state={channels}>
      {(channelPage) => (
        <LoadState state={workflows}>
          {(workflowPage) =>
            isNew ? (
              <SourceForm channels={channelPage.items} workflows={workflowPage.items} />
            ) : (
              <LoadState state={source}>
                {(loaded) => (
                  <SourceForm
                    key={`${loaded.id}@${loaded.updatedAt}`}
                    source={loaded}
                    channels={channelPage.items}
                    workflows={workflowPage.items}
                    onSaved={source.reload}
                  />
                )}
              </LoadState>
            )
          }
        </LoadState>
      )}
    </LoadState>
  );
}
