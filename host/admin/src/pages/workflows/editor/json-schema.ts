import shippedSchema from '../../../../../../schemas/workflow.schema.json' with { type: 'json' };

/** The parts of a JSON Schema the editor reads (and `enumDescriptions`, its own addition). */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  enumDescriptions?: string[];
  const?: unknown;
  required?: string[];
}

/** `schemas/workflow.schema.json`, generated from the host's workflow document schema and bundled at build time. */
export const WORKFLOW_SCHEMA = shippedSchema as unknown as JsonSchema;
