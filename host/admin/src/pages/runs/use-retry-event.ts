import { useState } from 'react';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { InboundEvent } from '../../api/api-types.ts';

/**
 * Queues a failed or skipped event again (`POST /api/inbound-events/:id/retry`), then calls
 * `onDone` to reload the list; `retrying` is the event in flight, `error` the last failure.
 */
export function useRetryEvent(onDone: () => void) {
  const [retrying, setRetrying] = useState<string>();
  const [error, setError] = useState<string>();
  const retry = async (event: InboundEvent) => {
    setRetrying(event.id);
    setError(undefined);
    try {
      await api.post(`/api/inbound-events/${event.id}/retry`);
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setRetrying(undefined);
    }
  };
  return { retry, retrying, error };
}
