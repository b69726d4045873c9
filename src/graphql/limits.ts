import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
}

/** Default number of items assumed for a list field without a `limit`/`first` argument. */
const DEFAULT_LIST_SIZE = 10;
const LIST_SIZE_ARGS = ['limit', 'first', 'last', 'take'];

const tooComplex = (message: string) => new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX' } });

/** Depth, alias and cost limits, checked before execution for every operation (HTTP and websocket). */
export function queryLimitRules(limits: QueryLimits): ValidationRule[] {
  return [depthRule(limits.maxDepth), aliasRule(limits.maxAliases), costRule(limits.maxCost)];
}

function fragmentsOf(context: ValidationContext): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) map.set(def.name.value, def);
  return map;
}

function depthRule(maxDepth: number): ValidationRule {
  return (context) => {
    const fragments = fragmentsOf(context);
    const depthOf = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
      if (!set) return depth;
      let max = depth;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (sel.name.value.startsWith('__')) continue;
          max = Math.max(max, depthOf(sel.selectionSet, depth + 1, seen));
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(sel.selectionSet, depth, seen));
        } else {
          const name = sel.name.value;
          if (seen.has(name)) continue;
          max = Math.max(max, depthOf(fragments.get(name)?.selectionSet, depth, new Set(seen).add(name)));
        }
        if (max > maxDepth) return max;
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > maxDepth) context.reportError(tooComplex(`Query depth ${depth} exceeds the limit of ${maxDepth}`));
      },
    };
  };
}

function aliasRule(maxAliases: number): ValidationRule {
  return (context) => {
    let aliases = 0;
    let reported = false;
    return {
      Field(node) {
        if (node.alias && ++aliases > maxAliases && !reported) {
          reported = true;
          context.reportError(tooComplex(`Query uses more than ${maxAliases} aliases`));
        }
      },
    };
  };
}

/**
 * Cost: every field costs 1, multiplied by the sizes of the lists enclosing it. A list's size
 * is its `limit`/`first` literal argument, else DEFAULT_LIST_SIZE (validation runs before
 * variables are known, so resolvers also cap their page sizes). Fragments are costed where
 * they are spread, so a fragment inside a list is multiplied like inline fields.
 */
function costRule(maxCost: number): ValidationRule {
  return (context) => {
    const schema = context.getSchema();
    const fragments = fragmentsOf(context);
    const listSize = (fieldDef: GraphQLField<unknown, unknown> | undefined, node: FieldNode): number => {
      if (!fieldDef || !isListType(getNullableType(fieldDef.type))) return 1;
      for (const arg of node.arguments ?? []) {
        if (LIST_SIZE_ARGS.includes(arg.name.value) && arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
      }
      return DEFAULT_LIST_SIZE;
    };
    const costOf = (set: SelectionSetNode, parent: GraphQLNamedType | undefined | null, multiplier: number, seen: ReadonlySet<string>): number => {
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          const fieldDef = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
          total += multiplier;
          if (sel.selectionSet) total += costOf(sel.selectionSet, fieldDef && getNamedType(fieldDef.type), multiplier * listSize(fieldDef, sel), seen);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          total += costOf(sel.selectionSet, sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent, multiplier, seen);
        } else {
          const fragment = fragments.get(sel.name.value);
          if (!fragment || seen.has(fragment.name.value)) continue;
          total += costOf(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), multiplier, new Set(seen).add(fragment.name.value));
        }
        if (total > maxCost) return total;
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const cost = costOf(node.selectionSet, schema.getRootType(node.operation), 1, new Set());
        if (cost > maxCost) context.reportError(tooComplex(`Query cost exceeds the limit of ${maxCost} (counted at least ${cost})`));
      },
    };
  };
}
