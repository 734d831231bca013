import { useState } from 'react';
import type { ListedMemoryRecord } from '../../api/api-types.ts';
import { api } from '../../api/api-client.ts';
import { errorMessage } from '../../api/api-error.ts';

/**
 * Edits a record's value as JSON. The host checks it against the definition's JSON Schema and
 * refuses it whole, with the reason, when it does not match.
 */
export function MemoryValueEditor({ record, onSaved, onCancel }: { record: ListedMemoryRecord; onSaved: () => void; onCancel: () => void }) {
  const [text, setText] = useState(() => JSON.stringify(record.value, null, 2));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      setError('Not valid JSON.');
      return;
    }
    setSaving(true);
    try {
      await api.put(`/api/memory-records/${record.id}`, { value });
      onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
      setSaving(false);
    }
  };
  return (
    <div className="form">
      <label>
        Value of {record.slug} (JSON)
        <textarea rows={Math.min(16, text.split('\n').length + 1)} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="actions">
        <button type="button" className="primary" disabled={saving} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}
