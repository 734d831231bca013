import Form from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { ReactNode } from 'react';

/**
 * A channel's settings form, rendered from its JSON Schema. Channels mark secrets with
 * `ui:widget: password` on the property; rjsf reads widgets from the uiSchema, so they are
 * moved there. Defaults from the schema fill empty fields.
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
  const { $schema: _dialect, ...formSchema } = schema;
  return (
    <Form
      schema={formSchema as RJSFSchema}
      uiSchema={uiSchemaOf(formSchema)}
      formData={settings}
      validator={validator}
      disabled={disabled ?? false}
      showErrorList={false}
      noHtml5Validate
      onSubmit={({ formData }) => onSubmit((formData ?? {}) as Record<string, unknown>)}
    >
      {children}
    </Form>
  );
}

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
