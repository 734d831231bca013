import type { Source } from '../../api/api-types.ts';
import { CopyField } from './copy-field.tsx';

/**
 * Where a source is reached: the webhook URL to copy into the platform, or, for a WebSocket
 * channel (which takes no webhooks), the chat page to open or hand out.
 */
export function SourceLink({ source, label }: { source: Source; label: string }) {
  if (source.webhookUrl) return <CopyField value={source.webhookUrl} label={`Webhook URL${label}`} />;
  if (!source.chatUrl) return <span>none (WebSocket channel)</span>;
  return (
    <span className="inline">
      <a href={source.chatUrl} target="_blank" rel="noreferrer">
        Open chat
      </a>
      <CopyField value={source.chatUrl} label={`Chat link${label}`} />
    </span>
  );
}
