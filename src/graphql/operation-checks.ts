import { getOperationAST, type DocumentNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode, type ValidationRule } from 'graphql';
import { UNSTORABLE_TEXT_MESSAGE, findUnstorableText, isStorableText } from '../input/storable-text';
import { codedError } from './errors';

export type Transport = 'http' | 'ws';

/** Refuses string literals PostgreSQL cannot store (the variables get the same check in checkOperation). */
export const storableLiteralsRule: ValidationRule = (context) => ({
  StringValue(node) {
    if (!isStorableText(node.value)) context.reportError(codedError('VALIDATION_FAILED', UNSTORABLE_TEXT_MESSAGE));
  },
});

/** Refuses `__schema` and `__type` (used when introspection is off); `__typename` stays allowed. */
export const noIntrospectionRule: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === '__schema' || node.name.value === '__type') context.reportError(codedError('FORBIDDEN', 'GraphQL introspection is disabled'));
  },
});

/** The operation a request names (or its only one), or a BAD_REQUEST error. */
export function resolveOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | GraphQLError {
  const operation = getOperationAST(document, operationName);
  if (operation) return operation;
  return codedError('BAD_REQUEST', operationName ? `Unknown operation named "${operationName}"` : 'Must provide operationName when the document has several operations');
}

/**
 * What a transport can run: no mutations or subscriptions the schema lacks, subscriptions only
 * over the websocket, and variables PostgreSQL can store. Null when the operation may run.
 */
export function checkOperation(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: unknown, transport: Transport): GraphQLError | null {
  if (!schema.getRootType(operation.operation)) return codedError('OPERATION_NOT_SUPPORTED', `This API has no ${operation.operation} operations`);
  if (operation.operation === 'subscription' && transport === 'http') {
    return codedError('OPERATION_NOT_SUPPORTED', 'Subscriptions run over the websocket (graphql-transport-ws) on /graphql, not over HTTP');
  }
  const path = findUnstorableText(variables, 'variables');
  if (path) return codedError('VALIDATION_FAILED', UNSTORABLE_TEXT_MESSAGE, { path });
  return null;
}
