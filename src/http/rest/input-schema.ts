import { z } from 'zod';

/**
 * The JSON schema (for the OpenAPI document) of a service's zod input. Routes that use it also
 * spread `judgedByService`: the service's own parse is the one judge, so REST and GraphQL refuse
 * the same inputs with the same VALIDATION_FAILED details.
 */
export function documentedBody(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
}

/**
 * Route options for a route whose input the service judges: Fastify's Ajv would coerce types and
 * drop unknown fields before the service saw them (even with `attachValidation`), so REST would
 * accept what GraphQL refuses. The route's schemas still document it and shape its responses.
 */
export const judgedByService = { validatorCompiler: () => () => true } as const;

/** The JSON schema of a domain model's declaration (an enum's option list, an object) for a response or parameter, with route-specific keywords. */
export function modelSchema(schema: z.ZodType, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...documentedBody(schema), ...extra };
}
