import { useEffect, useState } from 'react';
import { api } from '../../../api/api-client.ts';
import type { MemoryDefinition, Page } from '../../../api/api-types.ts';

/** The memory definitions, for completion in the canvas's expression fields (none until loaded, or if not allowed). */
export function useMemoryDefinitions(): readonly MemoryDefinition[] {
  const [definitions, setDefinitions] = useState<readonly MemoryDefinition[]>([]);
  useEffect(() => {
    let live = true;
    api.get<Page<MemoryDefinition>>('/api/memory-definitions?limit=200').then(
      (page) => live && setDefinitions(page.items),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return definitions;
}
