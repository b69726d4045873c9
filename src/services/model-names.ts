import { z } from 'zod';
import type { CacheHintName } from './cache-hints';

/**
 * The names of a domain's models where a transport needs one: the GraphQL type (object, input or
 * enum) a zod model becomes (src/graphql/zod-types.ts). A model's copies made by `.describe()`
 * keep its name.
 */
export const modelNames = z.registry<{ name: string; description?: string; fieldsOptional?: boolean }>();

/**
 * Names a model (the GraphQL type it becomes, described as the model is here); returns it, so a
 * declaration can be wrapped. `fieldsOptional`: as a GraphQL input every field is optional and a
 * null one is left out, so the service names each missing field (VALIDATION_FAILED with its
 * details) as it does for a REST body, instead of GraphQL refusing the document first.
 * `description`: the type's, where the model itself is not described.
 */
export function named<T extends z.ZodType>(name: string, schema: T, opts: { fieldsOptional?: boolean; description?: string } = {}): T {
  const description = opts.description ?? schema.description;
  modelNames.add(schema, { name, ...(description ? { description } : {}), ...(opts.fieldsOptional ? { fieldsOptional: true } : {}) });
  return schema;
}

/**
 * The cache hint of a model's field where it differs from its parent's (a list of objects inside a
 * cached answer: an unhinted one would make the whole answer uncacheable, src/graphql/cache-policy.ts).
 */
export const cacheHints = z.registry<{ hint: CacheHintName }>();

/** Marks a field's model with a cache hint by name (src/services/cache-hints.ts); returns it. */
export function cacheHinted<T extends z.ZodType>(hint: CacheHintName, schema: T): T {
  cacheHints.add(schema, { hint });
  return schema;
}
