import { Directive, Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { z } from 'zod';
import { CACHE_HINTS } from '../services/cache-hints';
import { cacheHints, modelNames } from '../services/model-names';
import { cacheControl } from './cache-policy';

/**
 * GraphQL types built from the domains' zod models at start, so a field is declared once (in the
 * model) and the SDL follows (schema/schema.graphql, checked fresh by `npm run check:generated`).
 *
 * - Output enums become GraphQL enums whose value names are the values themselves (`daily`, not
 *   `DAILY`): the JSON a client reads is unchanged. Input enums stay `String` with the values in
 *   the description: the service judges them, so a wrong value is VALIDATION_FAILED with the same
 *   details on REST and GraphQL (a GraphQL enum would refuse it before the service, in another shape).
 * - A union of objects sharing a discriminator becomes one input (the discriminator required, the
 *   members' other fields optional) or one object type; a union of scalars is a String.
 * - Objects and enums take their name from `modelNames` (src/services/model-names.ts); a string
 *   model named after a GraphQL scalar (SCALARS) becomes that scalar. A field marked `cacheHinted`
 *   there carries its `@cacheControl`.
 */

type Io = 'input' | 'output';
type GqlType = (typeof String | typeof Boolean | typeof Int | typeof Float | object) & object;
interface Shape {
  type: GqlType;
  list?: { itemNullable: boolean };
  nullable: boolean;
  description?: string;
}

// zod 4 exposes each schema's definition under `_zod.def`; these are the kinds the models use.
interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  in?: z.ZodType;
  out?: z.ZodType;
  discriminator?: string;
}
/** The scalars a string model may name itself after (`named('DateTimeISO', z.iso.datetime())`). */
const SCALARS: Record<string, GqlType> = {
  DateTimeISO: GraphQLISODateTime,
  ID,
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const nameOf = (schema: z.ZodType): string | undefined => modelNames.get(schema)?.name;

// By name: a model's `.describe()` copies carry its name and become the same type.
const built = {
  input: new Map<string, GqlType>(),
  output: new Map<string, GqlType>(),
};
const enums = new Map<string, { type: object; values: string }>();

function enumType(schema: z.ZodType, values: readonly string[]): object {
  const name = nameOf(schema);
  if (!name) throw new Error(`an output enum (${values.join(', ')}) needs a name: named('…', model) in its domain's model`);
  const cached = enums.get(name);
  if (cached) {
    if (cached.values !== values.join()) throw new Error(`two enums named ${name}: ${cached.values} and ${values.join()}`);
    return cached.type;
  }
  const type = Object.fromEntries(values.map((v) => [v, v]));
  registerEnumType(type, { name, description: modelNames.get(schema)?.description ?? schema.description });
  enums.set(name, { type, values: values.join() });
  return type;
}

/** The GraphQL shape of a zod model, seen from the side `io` (what a client sends or reads). */
export function shapeOf(schema: z.ZodType, io: Io): Shape {
  const def = defOf(schema);
  const described = (shape: Shape): Shape => ({
    ...shape,
    description: schema.description ?? shape.description,
  });
  const scalar = SCALARS[nameOf(schema) ?? ''];
  if (scalar && !['optional', 'nullable', 'default'].includes(def.type)) return { type: scalar, nullable: false, description: schema.description };
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return described({
        ...shapeOf(def.innerType!, io),
        nullable: io === 'input' || def.type === 'optional' ? true : shapeOf(def.innerType!, io).nullable,
      });
    case 'nullable':
      return described({ ...shapeOf(def.innerType!, io), nullable: true });
    case 'readonly':
    case 'catch':
      return described(shapeOf(def.innerType!, io));
    case 'pipe':
      return described(shapeOf(io === 'input' ? def.in! : def.out!, io));
    case 'string':
    case 'literal':
    case 'bigint':
    case 'date':
      return described({ type: String, nullable: false });
    case 'boolean':
      return described({ type: Boolean, nullable: false });
    case 'number':
      return described({
        type: (schema as unknown as { isInt: boolean }).isInt ? Int : Float,
        nullable: false,
      });
    case 'enum': {
      const values = Object.values(def.entries!);
      const listed = `One of: ${values.join(', ')}`;
      if (io === 'input')
        return {
          type: String,
          nullable: false,
          description: schema.description ? `${schema.description}. ${listed}` : listed,
        };
      return described({ type: enumType(schema, values), nullable: false });
    }
    case 'array': {
      const item = shapeOf(def.element!, io);
      return described({
        type: item.type,
        list: { itemNullable: item.nullable },
        nullable: false,
        description: item.description,
      });
    }
    case 'object':
      return described({ type: objectType(schema, io), nullable: false });
    case 'union': {
      const members = def.options!;
      if (members.every((m) => defOf(m).type === 'object')) return described({ type: objectType(schema, io), nullable: false });
      if (members.every((m) => ['string', 'number', 'literal', 'bigint'].includes(defOf(m).type))) return described({ type: String, nullable: false });
      throw new Error(`no GraphQL form for a union of ${members.map((m) => defOf(m).type).join(', ')}`);
    }
    default:
      throw new Error(`no GraphQL form for a zod ${def.type}`);
  }
}

/** The fields of an object model (GraphQL arguments when an operation spreads its input). */
export function fieldModels(schema: z.ZodType): Array<[string, z.ZodType]> {
  return fieldsOf(schema).map(([key, model]) => [key, model]);
}

/** The fields of an object model, or of a union of objects merged (the discriminator required where every member has it). */
function fieldsOf(schema: z.ZodType): Array<[string, z.ZodType, boolean]> {
  const def = defOf(schema);
  if (def.type === 'object') return Object.entries(def.shape!).map(([k, v]) => [k, v, true]);
  const members = def.options!.map((m) => defOf(m).shape!);
  const keys = [...new Set(members.flatMap((shape) => Object.keys(shape)))];
  return keys.map((key) => {
    const holders = members.filter((shape) => key in shape);
    return [key, holders[0]![key]!, holders.length === members.length];
  });
}

/** type-graphql's `nullable` option for a shape: a list's own nullability and its items'. */
function nullableOption(shape: Shape, nullable: boolean): boolean | 'items' | 'itemsAndList' {
  if (!shape.list) return nullable;
  if (nullable) return shape.list.itemNullable ? 'itemsAndList' : true;
  return shape.list.itemNullable ? 'items' : false;
}

function objectType(schema: z.ZodType, io: Io): GqlType {
  const name = nameOf(schema);
  if (!name)
    throw new Error(
      `a GraphQL ${io} object needs a name: named('…', model) in its domain's model (fields: ${fieldsOf(schema)
        .map(([k]) => k)
        .join(', ')})`,
    );
  const cached = built[io].get(name);
  if (cached) return cached;
  const type = { [name]: class {} }[name]!;
  built[io].set(name, type);
  const fieldsOptional = io === 'input' && modelNames.get(schema)?.fieldsOptional === true;
  for (const [key, field, inEveryMember] of fieldsOf(schema)) {
    const shape = shapeOf(field, io);
    const options = { description: shape.description, nullable: nullableOption(shape, shape.nullable || !inEveryMember || fieldsOptional) };
    Field(() => (shape.list ? [shape.type] : shape.type), options)(type.prototype, key);
    const hint = io === 'output' ? cacheHints.get(field)?.hint : undefined;
    if (hint) Directive(cacheControl(CACHE_HINTS[hint]))(type.prototype, key);
  }
  if (io === 'input') InputType(name, { description: modelNames.get(schema)?.description })(type);
  else
    ObjectType(name, {
      // The named model's own description: a described copy's is its field's, not the type's.
      description: modelNames.get(schema)?.description,
      simpleResolvers: true,
    })(type);
  return type;
}

/** The type-graphql return or argument type of a model: `[T]` for a list, with its nullability. */
export function graphqlTypeOf(
  schema: z.ZodType,
  io: Io,
): {
  type: () => GqlType | [GqlType];
  nullable: boolean | 'items' | 'itemsAndList';
  description?: string;
} {
  const shape = shapeOf(schema, io);
  return {
    type: () => (shape.list ? [shape.type] : shape.type),
    nullable: nullableOption(shape, shape.nullable),
    description: shape.description,
  };
}
