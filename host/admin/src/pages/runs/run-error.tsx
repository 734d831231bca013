import type { StepError } from '../../api/api-types.ts';
import type { ExplainedError } from './run-view.ts';

/**
 * A run's or step's error: the plain sentence first, the codes and the technical chain folded
 * under it, for whoever needs to dig. The API explains every error it gives; the fallbacks keep
 * an error typed as a bare `StepError` readable.
 */
export function RunError({ error }: { error: StepError & Partial<Pick<ExplainedError, 'summary' | 'chain'>> }) {
  const causeCode = (error.details as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return (
    <div className="run-error">
      <p className="error plain-error">{error.summary ?? error.message}</p>
      <details className="error-chain">
        <summary>Technical details</summary>
        <p>
          <code>{error.code}</code>
          {typeof causeCode === 'string' && (
            <>
              {' · '}
              <code>{causeCode}</code>
            </>
          )}
        </p>
        <ol>
          {(error.chain ?? [error.message]).map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ol>
      </details>
    </div>
  );
}
