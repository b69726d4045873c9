// A codegen plugin (codegen.ts loads it by name): the client package's typed documents, each with its
// printed text and that text's SHA-256 (the automatic-persisted-query hash), and a refusal of any
// root field of the schema that no operation document selects.
import { createHash } from 'node:crypto';
import { Kind, print, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

interface DocumentFile {
  location?: string;
  document?: DocumentNode;
}

const SUFFIX = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

/** The root fields of the schema that no operation selects (`query.jobs`, …). */
export function uncoveredRootFields(schema: GraphQLSchema, operations: OperationDefinitionNode[]): string[] {
  const selected = new Set(operations.flatMap((op) => op.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? `${op.operation}.${s.name.value}` : ''))));
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  return roots.flatMap(([operation, type]) => Object.keys(type?.getFields() ?? {}).map((field) => `${operation}.${field}`)).filter((root) => !selected.has(root));
}

/** The fragments an operation spreads, directly or through other fragments, in first-use order. */
function fragmentsOf(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const walk = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`Unknown fragment ${name}`);
        if (used.has(name)) return;
        used.set(name, fragment);
        walk(fragment);
      },
    });
  walk(op);
  return [...used.values()];
}

/** The AST as a bundle ships it: no source locations, no empty lists (as codegen's typed-document-node writes it). */
const compact = (doc: DocumentNode): DocumentNode =>
  JSON.parse(JSON.stringify(doc, (key, value: unknown) => (key === 'loc' || (Array.isArray(value) && value.length === 0) ? undefined : value))) as DocumentNode;

export const plugin = (schema: GraphQLSchema, files: DocumentFile[]): string => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const file of files) {
    for (const def of file.document?.definitions ?? []) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
      else if (def.kind === Kind.OPERATION_DEFINITION) {
        if (!def.name) throw new Error(`${file.location}: every operation needs a name`);
        operations.push(def);
      }
    }
  }
  const uncovered = uncoveredRootFields(schema, operations);
  if (uncovered.length) throw new Error(`No operation document selects ${uncovered.join(', ')}: add one to schema/operations/`);

  const out = ["import type { PersistedDocument } from '../document.js';", ''];
  for (const op of [...operations].sort((a, b) => a.name!.value.localeCompare(b.name!.value))) {
    const name = op.name!.value;
    const document = compact({ kind: Kind.DOCUMENT, definitions: [op, ...fragmentsOf(op, fragments)] });
    const query = print(document);
    const hash = createHash('sha256').update(query).digest('hex');
    const meta = { hash, query, operation: op.operation, operationName: name };
    const type = `${name}${SUFFIX[op.operation]}`;
    out.push(`export const ${name}Document = ${JSON.stringify({ ...document, __meta__: meta })} as unknown as PersistedDocument<${type}, ${type}Variables>;`);
  }
  return out.join('\n') + '\n';
};
