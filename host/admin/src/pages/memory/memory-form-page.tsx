import { useParams } from 'react-router';
import type { MemoryDefinition } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';
import { MemoryDefinitionForm } from './memory-definition-form.tsx';

/** Create (`/workflows/memory/new`) or edit (`/workflows/memory/:id`) a memory definition. */
export function MemoryFormPage() {
  const { id } = useParams();
  const state = useApiData<MemoryDefinition>(id && id !== 'new' ? `/api/memory-definitions/${id}` : null);
  if (!id || id === 'new') return <MemoryDefinitionForm />;
  return <LoadState state={state}>{(definition) => <MemoryDefinitionForm key={definition.id} definition={definition} />}</LoadState>;
}
