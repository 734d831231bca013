import Form from '@rjsf/core';
import type { DescriptionFieldProps, RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { ReactNode } from 'react';
import { MarkdownText } from '../../components/markdown-text.tsx';
import { egressDefaultsAsHints } from './egress-defaults-as-hints.ts';
import { useTouchedErrors } from './use-touched-errors.ts';

/**
 * A channel's settings form, rendered from its JSON Schema. Channels mark secrets with
 * `ui:widget: password` on the property; rjsf reads widgets from the uiSchema, so they are
 * moved there. Defaults from the schema fill empty fields, but for endpoint (`x-egress`)
 * settings, which only an operator's saved value grants; descriptions are markdown.
 */
export function SettingsForm({
  schema,
  settings,
  disabled,
  onSubmit,
  children,
}: {
  schema: Record<string, unknown>;
  settings: Record<string, unknown>;
  disabled?: boolean;
  onSubmit: (settings: Record<string, unknown>) => void;
  children: ReactNode;
}) {
  const { $schema: _dialect, ...formSchema } = egressDefaultsAsHints(schema);
  const touched = useTouchedErrors();
  return (
    // A field's errors show once it is left, or once the form is submitted.
    <div className="settings-form" onSubmitCapture={touched.onSubmitCapture}>
      <Form
        schema={formSchema as RJSFSchema}
        uiSchema={uiSchemaOf(formSchema)}
        formData={settings}
        validator={validator}
        disabled={disabled ?? false}
        showErrorList={false}
        noHtml5Validate
        templates={TEMPLATES}
        liveValidate="onBlur"
        onBlur={touched.onBlur}
        transformErrors={touched.transformErrors}
        onSubmit={({ formData }) => onSubmit((formData ?? {}) as Record<string, unknown>)}
      >
        {children}
      </Form>
    </div>
  );
}

const TEMPLATES = { DescriptionFieldTemplate };

/** `ui:*` keys of each top-level property, as rjsf expects them in the uiSchema. */
export function uiSchemaOf(schema: Record<string, unknown>): UiSchema {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const uiSchema: UiSchema = {};
  for (const [name, property] of Object.entries(properties)) {
    const hints = Object.entries(property ?? {}).filter(([key]) => key.startsWith('ui:'));
    if (hints.length > 0) uiSchema[name] = Object.fromEntries(hints);
  }
  return uiSchema;
}

/** A field's description, its markdown rendered safely (inline code, links; no raw HTML). */
function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <div id={id} className="field-description">
      {typeof description === 'string' ? <MarkdownText text={description} /> : description}
    </div>
  );
}
