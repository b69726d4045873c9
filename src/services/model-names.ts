import { z } from 'zod';

/**
 * The names of a domain's models where a transport needs one: the GraphQL type (object, input or
 * enum) a zod model becomes (src/graphql/zod-types.ts). A model's copies made by `.describe()`
 * keep its name.
 */
export const modelNames = z.registry<{ name: string }>();

/** Names a model (the GraphQL type it becomes); returns it, so a declaration can be wrapped. */
export function named<T extends z.ZodType>(name: string, schema: T): T {
  modelNames.add(schema, { name });
  return schema;
}
