import { withQuery } from '../../api/api-client.ts';
import type { Workflow } from '../../api/api-types.ts';
import { useApiData } from '../../api/use-api-data.ts';
import { LoadState } from '../../components/load-state.tsx';
import { lineDiff } from './line-diff.ts';
import './version-diff.css';

/** The changed lines between two versions of a workflow's YAML, the older on the left of each pair. */
export function VersionDiff({ workflowId, from, to }: { workflowId: string; from: number; to: number }) {
  const before = useApiData<Workflow>(withQuery(`/api/workflows/${workflowId}`, { version: from }));
  const after = useApiData<Workflow>(withQuery(`/api/workflows/${workflowId}`, { version: to }));
  return (
    <LoadState state={before}>
      {(old) => (
        <LoadState state={after}>
          {(next) => <DiffTable label={`Changes from v${from} to v${to}`} before={old.yaml} after={next.yaml} />}
        </LoadState>
      )}
    </LoadState>
  );
}

function DiffTable({ label, before, after }: { label: string; before: string; after: string }) {
  const rows = lineDiff(before, after);
  if (rows.every((row) => row.kind === 'same' || row.kind === 'fold')) return <p className="empty">The two versions have the same YAML.</p>;
  return (
    <table className="version-diff" aria-label={label}>
      <tbody>
        {rows.map((row, index) =>
          row.kind === 'fold' ? (
            <tr key={index} className="diff-fold">
              <td colSpan={3}>⋯ {row.count} unchanged line{row.count === 1 ? '' : 's'}</td>
            </tr>
          ) : (
            <tr key={index} className={`diff-${row.kind}`} data-kind={row.kind}>
              <td className="diff-number">{row.oldNumber ?? ''}</td>
              <td className="diff-number">{row.newNumber ?? ''}</td>
              <td className="diff-text">
                <span aria-hidden="true">{row.kind === 'added' ? '+ ' : row.kind === 'removed' ? '- ' : '  '}</span>
                {row.text}
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
