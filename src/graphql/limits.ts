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
import { ERROR_STATUS } from '../errors';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
}

/** Default number of items assumed for a list field without a `limit`/`first` argument. */
const DEFAULT_LIST_SIZE = 10;
const LIST_SIZE_ARGS = ['limit', 'first', 'last', 'take'];

export const tooComplex = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: ERROR_STATUS.QUERY_TOO_COMPLEX } } });

/**
 * Depth, alias, cost and selection-shape limits, checked before execution for every operation
 * (HTTP and websocket). All run in time linear in the document, so they run first and
 * graphql's own rules only see documents that passed them.
 */
export function queryLimitRules(limits: QueryLimits): ValidationRule[] {
  return [depthRule(limits.maxDepth), aliasRule(limits.maxAliases), costRule(limits.maxCost), selectionShapeRule(SELECTION_SHAPE)];
}

/**
 * OverlappingFieldsCanBeMerged compares every pair of same-named fields and every pair of
 * fragments spread into one selection set; these caps keep its work small.
 */
const SELECTION_SHAPE = { maxSameResponseName: 8, maxFragmentSpreads: 16, maxDefinitions: 64 } as const;

function fragmentsOf(context: ValidationContext): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) map.set(def.name.value, def);
  return map;
}

/**
 * Evaluates every fragment once per document: `measure` computes a fragment's own value, and
 * a spread reuses it. A fragment met again while it is being measured (a cycle, which
 * graphql's NoFragmentCycles rule reports) counts as 0. So the walk visits each selection of
 * the document at most once, however often fragments spread each other.
 */
function memoizedFragments(context: ValidationContext, measure: (fragment: FragmentDefinitionNode) => number) {
  const fragments = fragmentsOf(context);
  const values = new Map<string, number>();
  const inProgress = new Set<string>();
  return (name: string): number => {
    const known = values.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment || inProgress.has(name)) return 0;
    inProgress.add(name);
    const value = measure(fragment);
    inProgress.delete(name);
    values.set(name, value);
    return value;
  };
}

/** Depth = fields nested below the operation (introspection fields not counted). */
function depthRule(maxDepth: number): ValidationRule {
  return (context) => {
    const depthOf = (set: SelectionSetNode | undefined): number => {
      if (!set) return 0;
      let max = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (!sel.name.value.startsWith('__')) max = Math.max(max, 1 + depthOf(sel.selectionSet));
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(sel.selectionSet));
        } else {
          max = Math.max(max, fragmentDepth(sel.name.value));
        }
        if (max > maxDepth) break;
      }
      return max;
    };
    const fragmentDepth = memoizedFragments(context, (fragment) => depthOf(fragment.selectionSet));
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet);
        if (depth > maxDepth) context.reportError(tooComplex(`Query depth ${depth} exceeds the limit of ${maxDepth}`));
      },
    };
  };
}

/**
 * Counts operations and fragments per document, and one selection set's fields per response
 * name and its distinct spreads (inline fragments flattened).
 */
function selectionShapeRule(caps: typeof SELECTION_SHAPE): ValidationRule {
  return (context) => {
    let reported = false;
    const report = (message: string) => {
      if (reported) return;
      reported = true;
      context.reportError(tooComplex(message));
    };
    return {
      Document(node) {
        if (node.definitions.length > caps.maxDefinitions) report(`Query document has more than ${caps.maxDefinitions} operations and fragments`);
      },
      SelectionSet(node) {
        if (reported) return;
        const names = new Map<string, number>();
        const spreads = new Set<string>();
        const pending: SelectionSetNode[] = [node];
        while (pending.length) {
          for (const sel of pending.pop()!.selections) {
            if (sel.kind === Kind.FIELD) {
              const name = (sel.alias ?? sel.name).value;
              const count = (names.get(name) ?? 0) + 1;
              if (count > caps.maxSameResponseName) return report(`A selection set repeats "${name}" more than ${caps.maxSameResponseName} times`);
              names.set(name, count);
            } else if (sel.kind === Kind.INLINE_FRAGMENT) {
              pending.push(sel.selectionSet);
            } else if (spreads.add(sel.name.value).size > caps.maxFragmentSpreads) {
              return report(`A selection set spreads more than ${caps.maxFragmentSpreads} fragments`);
            }
          }
        }
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
 * variables are known, so resolvers also cap their page sizes). A fragment's cost is computed
 * once and multiplied where it is spread, like inline fields. Sums saturate just above the
 * limit, so counting stops as soon as the limit is passed.
 */
function costRule(maxCost: number): ValidationRule {
  const over = maxCost + 1;
  const add = (a: number, b: number) => Math.min(over, a + b);
  const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : Math.min(over, a * b));
  return (context) => {
    const schema = context.getSchema();
    const listSize = (fieldDef: GraphQLField<unknown, unknown> | undefined, node: FieldNode): number => {
      if (!fieldDef || !isListType(getNullableType(fieldDef.type))) return 1;
      for (const arg of node.arguments ?? []) {
        if (LIST_SIZE_ARGS.includes(arg.name.value) && arg.value.kind === Kind.INT) return Math.min(over, Math.max(1, Number(arg.value.value) || 1));
      }
      return DEFAULT_LIST_SIZE;
    };
    const costOf = (set: SelectionSetNode, parent: GraphQLNamedType | undefined | null): number => {
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          const fieldDef = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
          total = add(total, 1);
          if (sel.selectionSet) total = add(total, times(listSize(fieldDef, sel), costOf(sel.selectionSet, fieldDef && getNamedType(fieldDef.type))));
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          total = add(total, costOf(sel.selectionSet, sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent));
        } else {
          total = add(total, fragmentCost(sel.name.value));
        }
        if (total > maxCost) break;
      }
      return total;
    };
    const fragmentCost = memoizedFragments(context, (fragment) => costOf(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value)));
    return {
      OperationDefinition(node) {
        const cost = costOf(node.selectionSet, schema.getRootType(node.operation));
        if (cost > maxCost) context.reportError(tooComplex(`Query cost exceeds the limit of ${maxCost} (counted at least ${cost})`));
      },
    };
  };
}
