import { Link } from 'react-router';
import type { Source } from '../../api/api-types.ts';
import { useSkippedCount } from './skipped-count.ts';

/**
 * Marks a source that answers nothing by default: without a default workflow, its events are
 * accepted (the platform sees a 200) and then skipped, which a newcomer cannot otherwise notice.
 * Also counts the source's skipped events, linking to them; a source with a default workflow
 * shows only the count, and only when there is one.
 */
export function UnansweredWarning({ source }: { source: Source }) {
  const skipped = useSkippedCount(source.id);
  const unanswered = source.defaultWorkflowId === null;
  if (!unanswered && !skipped) return null;
  const inbound = source.webhookUrl ? 'Webhooks to this source' : 'Messages to this source';
  return (
    <p className={unanswered ? 'warning' : 'notice-line'}>
      {unanswered && (
        <>
          <span aria-hidden="true">⚠ </span>
          <strong>Warning:</strong> {inbound} are accepted but not answered:{' '}
          <Link to={`/sources/${source.id}`} aria-label={`set a default workflow for ${source.name}`}>
            set a default workflow
          </Link>.{' '}
        </>
      )}
      {skipped ? <SkippedLink source={source} count={skipped} /> : null}
    </p>
  );
}

/** The count as a link; its accessible name names the source, as a table row may not be read out. */
function SkippedLink({ source, count }: { source: Source; count: number }) {
  const text = count === 1 ? '1 skipped event' : `${count} skipped events`;
  return (
    <Link to={`/skipped-events/${source.id}`} aria-label={`${text} of ${source.name}`}>
      {text}
    </Link>
  );
}
