import {
  GraphQLError,
  Kind,
  getNamedType,
  isListType,
  getNullableType,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type GraphQLField,
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
 * variables are known, so resolvers also cap their page sizes). Fragment fields are counted once.
 */
function costRule(maxCost: number): ValidationRule {
  return (context): ASTVisitor => {
    let cost = 0;
    const multipliers: number[] = [1];
    const listSize = (fieldDef: GraphQLField<unknown, unknown> | null, node: import('graphql').FieldNode): number => {
      if (!fieldDef || !isListType(getNullableType(fieldDef.type))) return 1;
      for (const arg of node.arguments ?? []) {
        if (!LIST_SIZE_ARGS.includes(arg.name.value)) continue;
        if (arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
      }
      return DEFAULT_LIST_SIZE;
    };
    return {
      Field: {
        enter(node) {
          const fieldDef = context.getFieldDef() ?? null;
          const parent = multipliers[multipliers.length - 1];
          cost += parent;
          const hasChildren = Boolean(node.selectionSet) && Boolean(fieldDef && getNamedType(fieldDef.type));
          multipliers.push(hasChildren ? parent * listSize(fieldDef, node) : parent);
        },
        leave() {
          multipliers.pop();
        },
      },
      OperationDefinition: {
        leave() {
          if (cost > maxCost) context.reportError(tooComplex(`Query cost ${cost} exceeds the limit of ${maxCost}`));
          cost = 0;
        },
      },
    };
  };
}
