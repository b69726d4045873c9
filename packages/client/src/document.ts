import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

export type { ResultOf, VariablesOf, TypedDocumentNode } from '@graphql-typed-document-node/core';

/** What codegen attaches to each generated document: the text sent and its SHA-256 (the persisted-query hash). */
export interface DocumentMeta {
  /** Hex SHA-256 of `query`: the automatic-persisted-query hash. */
  readonly hash: string;
  /** The printed operation with the fragments it spreads. */
  readonly query: string;
  readonly operation: 'query' | 'mutation' | 'subscription';
  readonly operationName: string;
}

/**
 * A generated document: a `TypedDocumentNode` (Apollo Client, urql and graphql-request take it as it is)
 * that also carries its text and hash, so the package's own client needs no GraphQL printer.
 */
export interface PersistedDocument<TResult = Record<string, unknown>, TVariables = Record<string, unknown>> extends TypedDocumentNode<TResult, TVariables> {
  readonly __meta__: DocumentMeta;
}

/** The variables argument: optional when the operation has no required variable. */
export type VariablesArg<TVariables> = Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];
