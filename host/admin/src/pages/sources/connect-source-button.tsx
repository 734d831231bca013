import { useState } from 'react';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';
import type { ConnectResult, Source } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { CopyableText } from './copyable-text.tsx';

/**
 * "Connect to <channel>": the channel's own connect step (a webhook set on the platform, or an
 * app manifest to paste there), shown only for channels that have one. Its answer is shown
 * whatever it says: the channel's message, and its instructions to copy.
 * @example {channel.connectable && <ConnectSourceButton source={source} />}
 */
export function ConnectSourceButton({ source }: { source: Source }) {
  const { can } = useSession();
  const [connecting, setConnecting] = useState(false);
  const [result, setResult] = useState<ConnectResult>();
  const [failure, setFailure] = useState<string>();

  const connect = async () => {
    setConnecting(true);
    setResult(undefined);
    setFailure(undefined);
    try {
      setResult(await api.post<ConnectResult>(`/api/sources/${source.id}/connect`));
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setConnecting(false);
    }
  };

  return (
    <div className="connect-source">
      <button type="button" onClick={connect} disabled={!can('source:update') || connecting}>
        {connecting ? 'Connecting…' : `Connect to ${source.channel}`}
      </button>
      {result && (
        <p className={result.connected ? 'notice' : 'warning'} role="status">
          {result.message}
        </p>
      )}
      {result?.instructions && <CopyableText text={result.instructions} label="Connect instructions" />}
      {failure && (
        <p className="refusal" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}
