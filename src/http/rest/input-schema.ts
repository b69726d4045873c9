import { z } from 'zod';

/**
 * The JSON schema (for the OpenAPI document) of a service's zod input. Routes that use it set
 * `attachValidation: true`: the service's own parse is the one judge, so REST and GraphQL refuse
 * the same inputs with the same VALIDATION_FAILED details.
 */
export function documentedBody(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
}
