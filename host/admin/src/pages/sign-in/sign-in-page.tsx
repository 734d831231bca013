import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useSession } from '../../auth/session-context.tsx';

/** Paste an admin token (`npm run token -- --role admin`), or use the link `npm start` prints. */
export function SignInPage() {
  const { claims, endReason: reason, signIn } = useSession();
  const navigate = useNavigate();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  if (claims) return <Navigate to="/" replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (signIn(token)) navigate('/', { replace: true });
    else setError('This is not a valid, unexpired admin token.');
  };
  return (
    <main className="sign-in">
      <h1>bot host admin</h1>
      {reason && <p className="notice">{reason}</p>}
      <p>
        Open the one-time link <code>npm start</code> prints, or paste a token from <code>npm run token -- --role admin</code>.
      </p>
      <form onSubmit={submit}>
        <label>
          Token
          <textarea name="token" rows={4} value={token} onChange={(event) => setToken(event.target.value)} required />
        </label>
        {error && <p className="field-error">{error}</p>}
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
