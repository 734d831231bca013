import type { Source } from '../../api/api-types.ts';
import { DeleteButton } from '../../components/delete-button.tsx';

/** Deletes a source after a confirmation. */
export function DeleteSourceButton({ source }: { source: Source }) {
  return (
    <DeleteButton path={`/api/sources/${source.id}`} permission="source:delete" after="/sources" title={`Delete "${source.name}"?`}>
      <p>Its webhook URL stops working at once.</p>
    </DeleteButton>
  );
}
