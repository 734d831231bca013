import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import type { MemoryDefinition, MemoryScope } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { FieldError } from '../../components/field-error.tsx';
import { useTouched } from '../../components/use-touched.ts';
import { TTL_UNITS } from './format-ttl.ts';
import { useMemoryFormState } from './memory-form-state.ts';
import { SchemaEditor } from './schema-editor.tsx';
import { slugMessage, useSlugCheck } from './use-slug-check.ts';

const SCOPES: MemoryScope[] = ['global', 'workflow', 'thread', 'run'];
type FieldKey = 'name' | 'slug' | 'scope' | 'ttlSeconds' | 'schema' | 'form';

/** Maps the server's `details.field` (e.g. `schema.properties.city.description`) to a form field. */
function fieldOf(field: string | undefined): FieldKey {
  const head = field?.split('.')[0];
  return head === 'name' || head === 'slug' || head === 'scope' || head === 'ttlSeconds' || head === 'schema' ? head : 'form';
}

/** The create/edit form of a memory definition; server errors appear at the field they concern. */
export function MemoryDefinitionForm({ definition }: { definition?: MemoryDefinition }) {
  const navigate = useNavigate();
  const { can } = useSession();
  const { fields, set, body } = useMemoryFormState(definition);
  const { check, checking } = useSlugCheck(fields.slug, definition?.id);
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const [saving, setSaving] = useState(false);
  const allowed = can(definition ? 'memory_definition:update' : 'memory_definition:create');
  const touched = useTouched<'name' | 'slug'>();
  // A slug's problem shows once one is typed (by hand or from the name), or it was left, or saving was tried.
  const slugProblem = slugMessage(check);
  const shownSlugProblem = fields.slug !== '' || touched.shows('slug') ? slugProblem : undefined;
  const nameProblem = touched.shows('name') && fields.name.trim() === '' ? 'A name is required' : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    touched.trySave();
    if (slugProblem !== undefined) return;
    setSaving(true);
    setErrors({});
    try {
      if (definition) await api.patch(`/api/memory-definitions/${definition.id}`, body());
      else await api.post('/api/memory-definitions', body());
      navigate('/workflows/memory');
    } catch (failure) {
      const field = isApiError(failure) ? fieldOf(failure.field) : 'form';
      const path = isApiError(failure) && field === 'schema' && failure.field !== 'schema' ? `${failure.field}: ` : '';
      setErrors({ [field]: `${path}${errorMessage(failure)}` });
      setSaving(false);
    }
  };

  return (
    <section>
      <h1>{definition ? `Edit "${definition.name}"` : 'New memory definition'}</h1>
      <form className="form" onSubmit={submit}>
        <fieldset disabled={!allowed}>
          <label>
            Name
            <input
              name="name"
              aria-describedby="name-error"
              value={fields.name}
              onChange={(e) => set.name(e.target.value)}
              onBlur={touched.blur('name')}
              required
              aria-invalid={nameProblem || errors.name ? true : undefined}
            />
          </label>
          <FieldError id="name-error" message={nameProblem ?? errors.name} />
          <label>
            Slug
            <input
              name="slug"
              aria-describedby="slug-error"
              value={fields.slug}
              onChange={(e) => set.slug(e.target.value)}
              onBlur={touched.blur('slug')}
              aria-invalid={shownSlugProblem || errors.slug ? true : undefined}
            />
          </label>
          <FieldError id="slug-error" message={shownSlugProblem ?? errors.slug} />
          <label>
            Scope
            <select name="scope" value={fields.scope} onChange={(e) => set.scope(e.target.value as MemoryScope)}>
              {SCOPES.map((scope) => (
                <option key={scope}>{scope}</option>
              ))}
            </select>
          </label>
          <FieldError id="scope-error" message={errors.scope} />
          <label>
            TTL <small>(empty: permanent)</small>
            <span className="inline">
              <input name="ttl" aria-describedby="ttl-error" type="number" value={fields.ttlAmount} onChange={(e) => set.ttlAmount(e.target.value)} placeholder="permanent" />
              <select name="ttlUnit" aria-label="TTL unit" value={fields.ttlUnit} onChange={(e) => set.ttlUnit(Number(e.target.value))}>
                {TTL_UNITS.map((unit) => (
                  <option key={unit.seconds} value={unit.seconds}>
                    {unit.label}
                  </option>
                ))}
              </select>
            </span>
          </label>
          <FieldError id="ttl-error" message={errors.ttlSeconds} />
          {fields.schemaJson === undefined ? (
            <SchemaEditor rows={fields.rows} onChange={set.rows} />
          ) : (
            <label>
              Schema (JSON)
              <textarea name="schema" rows={12} value={fields.schemaJson} onChange={(e) => set.schemaJson(e.target.value)} />
            </label>
          )}
          <FieldError id="schema-error" message={errors.schema} />
        </fieldset>
        <FieldError message={errors.form} />
        <p className="actions">
          {/* A click marks the save as tried even when the browser's own checks then stop it. */}
          <button type="submit" onClick={touched.trySave} disabled={!allowed || saving || checking || shownSlugProblem !== undefined}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          <Link to="/workflows/memory">Cancel</Link>
        </p>
      </form>
    </section>
  );
}
