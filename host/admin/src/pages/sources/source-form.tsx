import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import type { Channel, Source, WorkflowSummary } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { FieldError } from '../../components/field-error.tsx';
import { useTouched } from '../../components/use-touched.ts';
import { ConnectSourceButton } from './connect-source-button.tsx';
import { CopyField } from './copy-field.tsx';
import { SourceLink } from './source-link.tsx';
import { DeleteSourceButton } from './delete-source-button.tsx';
import { EgressOrigins } from './egress-origins.tsx';
import { SettingsForm } from './settings-form.tsx';

type FieldKey = 'name' | 'channel' | 'settings' | 'defaultWorkflowId' | 'form';

/** A source's fields; its settings come from the channel's JSON Schema. Secrets stay masked. */
export function SourceForm({
  source,
  channels,
  workflows,
  onSaved,
}: {
  source?: Source;
  channels: Channel[];
  workflows: WorkflowSummary[];
  /** Called after an edit is saved (the page reloads the source, secrets masked again). */
  onSaved?: () => void;
}) {
  const navigate = useNavigate();
  const { can } = useSession();
  const [name, setName] = useState(source?.name ?? '');
  const [channelName, setChannelName] = useState(source?.channel ?? channels[0]?.name ?? '');
  const [active, setActive] = useState(source?.active ?? true);
  const [defaultWorkflowId, setDefaultWorkflowId] = useState(source?.defaultWorkflowId ?? '');
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const [saving, setSaving] = useState(false);
  const channel = channels.find((candidate) => candidate.name === channelName);
  // One object for the form's life: rjsf resets its fields when formData changes.
  const initialSettings = useMemo(() => source?.settings ?? {}, [source]);
  const allowed = can(source ? 'source:update' : 'source:create');
  const touched = useTouched<'name'>();
  const nameProblem = touched.shows('name') && name.trim() === '' ? 'A name is required' : undefined;

  const save = async (settings: Record<string, unknown>) => {
    if (name.trim() === '') return;
    setSaving(true);
    setErrors({});
    const body = { name, settings, active, defaultWorkflowId: defaultWorkflowId || null };
    try {
      const saved = source
        ? await api.patch<Source>(`/api/sources/${source.id}`, body)
        : await api.post<Source>('/api/sources', { ...body, channel: channelName });
      if (source) onSaved?.();
      else navigate(`/sources/${saved.id}`, { replace: true });
    } catch (failure) {
      setErrors({ [fieldOf(failure)]: errorMessage(failure) });
      setSaving(false);
    }
  };

  return (
    <section>
      <h1>{source ? `Source "${source.name}"` : 'New source'}</h1>
      <div className="form">
        <fieldset disabled={!allowed}>
          <label>
            Name
            <input
              name="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              onBlur={touched.blur('name')}
              aria-describedby="source-name-error"
              aria-invalid={nameProblem || errors.name ? true : undefined}
            />
          </label>
          <FieldError id="source-name-error" message={nameProblem ?? errors.name} />
          <label>
            Channel
            <select name="channel" value={channelName} disabled={source !== undefined} onChange={(e) => setChannelName(e.target.value)}>
              {source && !channel && <option>{source.channel}</option>}
              {channels.map((candidate) => (
                <option key={candidate.name}>{candidate.name}</option>
              ))}
            </select>
          </label>
          <FieldError message={errors.channel} />
          <label className="check">
            <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.target.checked)} />
            Active (runs workflows for its events)
          </label>
          <label>
            Default workflow
            <select
              name="defaultWorkflowId"
              value={defaultWorkflowId}
              aria-describedby={defaultWorkflowId ? undefined : 'default-workflow-hint'}
              onChange={(e) => setDefaultWorkflowId(e.target.value)}
            >
              <option value="">(none)</option>
              {workflows.map((workflow) => (
                <option key={workflow.id} value={workflow.id}>
                  {workflow.name}
                </option>
              ))}
            </select>
          </label>
          {/* The one choice that silently decides whether the bot answers at all (issue 14). */}
          {!defaultWorkflowId && (
            <span id="default-workflow-hint" className="warning">
              Without a default workflow, events are accepted but not answered (they are listed under Skipped events).
            </span>
          )}
          <FieldError message={errors.defaultWorkflowId} />
          {source?.webhookUrl && (
            <label>
              Webhook URL
              <CopyField value={source.webhookUrl} label="Webhook URL" />
            </label>
          )}
          {source && channel?.connectable && <ConnectSourceButton source={source} />}
          {source?.chatUrl && (
            <p>
              Chat page: <SourceLink source={source} label="" />
            </p>
          )}
          {source && <EgressOrigins origins={source.egressOrigins} />}
        </fieldset>
        <h2>Settings</h2>
        {channel ? (
          <SettingsForm key={channel.name} schema={channel.settingsSchema} settings={initialSettings} disabled={!allowed} onSubmit={save}>
            <FieldError id="settings-error" message={errors.settings} />
            <FieldError message={errors.form} />
            <p className="actions">
              <button type="submit" onClick={touched.trySave} disabled={!allowed || saving}>
                {saving ? 'Saving…' : 'Save'}
              </button>
              <Link to="/sources">Back to sources</Link>
              {source && <DeleteSourceButton source={source} />}
            </p>
          </SettingsForm>
        ) : (
          <p className="error">{channelName ? `The channel "${channelName}" is not registered.` : 'No channel is registered.'}</p>
        )}
      </div>
    </section>
  );
}

function fieldOf(failure: unknown): FieldKey {
  const field = isApiError(failure) ? failure.field?.split('.')[0] : undefined;
  if (isApiError(failure) && failure.code.includes('SETTINGS')) return 'settings';
  return field === 'name' || field === 'channel' || field === 'settings' || field === 'defaultWorkflowId' ? field : 'form';
}
