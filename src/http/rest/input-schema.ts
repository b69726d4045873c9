import { z } from 'zod';
import { modelNames } from '../../services/model-names';

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

type JsonNode = Record<string, unknown>;
const SAFE_INT = Number.MAX_SAFE_INTEGER;

/**
 * Rewrites zod's JSON schema into the shapes the OpenAPI document has used since before the
 * domain models (so the document only grows): `type: [T, 'null']` instead of `anyOf` with null,
 * no `additionalProperties: false` on replies, no regex beside `format: date-time`, no safe-integer bounds.
 */
function documentShape(node: JsonNode): JsonNode {
  const out: JsonNode = { ...node };
  if (out.additionalProperties === false) delete out.additionalProperties;
  if (out.format === 'date-time') delete out.pattern;
  if (out.type === 'integer' && out.minimum === -SAFE_INT && out.maximum === SAFE_INT) {
    delete out.minimum;
    delete out.maximum;
  }
  if (out.items) out.items = documentShape(out.items as JsonNode);
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, JsonNode>).map(([k, v]) => [k, documentShape(v)]));
  const anyOf = out.anyOf as JsonNode[] | undefined;
  if (anyOf?.length === 2 && anyOf.some((n) => n.type === 'null')) {
    const value = documentShape(anyOf.find((n) => n.type !== 'null')!);
    if (typeof value.type === 'string') {
      delete out.anyOf;
      return { ...value, type: [value.type, 'null'], ...(Array.isArray(value.enum) ? { enum: [...value.enum, null] } : {}), ...out };
    }
  }
  const { type, required, properties, ...rest } = out;
  return { ...(type !== undefined ? { type } : {}), ...(required ? { required } : {}), ...(properties ? { properties } : {}), ...rest };
}

/**
 * The JSON schema (for the OpenAPI document and the reply serializer) of a domain model's output.
 * `$id`: it is a shared schema of that id. `refs`: the shared schemas by the name of their model
 * (src/services/model-names.ts) → their id; a part of the reply that is one of them becomes a `$ref` to it.
 */
export function documentedReply(schema: z.ZodType, $id?: string, refs: ReadonlyMap<string, string> = new Map()): Record<string, unknown> {
  const override = ({ zodSchema, jsonSchema, path }: { zodSchema: unknown; jsonSchema: JsonNode; path: unknown[] }) => {
    const id = refs.get(modelNames.get(zodSchema as z.ZodType)?.name ?? '');
    if (!id || (path.length === 0 && id === $id)) return;
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    jsonSchema.$ref = `${id}#`;
  };
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any', override }) as JsonNode;
  return { ...($id ? { $id } : {}), ...documentShape(json) };
}

/** The JSON schema of a domain model's declaration (an enum's option list, an object) for a response or parameter, with route-specific keywords. */
export function modelSchema(schema: z.ZodType, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...documentedBody(schema), ...extra };
}
