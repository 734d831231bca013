import { errorMessage, isApiError } from '../../../api/api-error.ts';

/** A refused preview or install: the error's code, its message, and the discovery check that failed. */
export function RefusalMessage({ title, error }: { title: string; error: unknown }) {
  const check = isApiError(error) ? (error.details as { check?: unknown } | undefined)?.check : undefined;
  return (
    <div className="refusal" role="alert">
      <strong>{title}</strong>
      {isApiError(error) && (
        <p>
          <code className="error-code">{error.code}</code>
          {typeof check === 'string' && (
            <>
              {' '}
              (check <code>{check}</code>)
            </>
          )}
        </p>
      )}
      <p className="error-message">{errorMessage(error)}</p>
    </div>
  );
}
