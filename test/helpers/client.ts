import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type ExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** Runs a codegen'd typed document over HTTP POST. */
export async function gql<TData, TVars>(
  url: string,
  document: TypedDocumentNode<TData, TVars>,
  variables?: TVars,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: ExecutionResult<TData> }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: print(document), variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as ExecutionResult<TData> };
}

export function wsClient(wsUrl: string, connectionParams?: Record<string, unknown>, headers?: Record<string, string>): Client {
  return createClient({
    url: wsUrl,
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
}

/** Runs a typed query over graphql-ws and returns its single result. */
export function wsQuery<TData, TVars>(client: Client, document: TypedDocumentNode<TData, TVars>, variables?: TVars): Promise<ExecutionResult<TData>> {
  return new Promise((resolve, reject) => {
    let result: ExecutionResult<TData> | undefined;
    client.subscribe<TData>(
      { query: print(document), variables: variables as Record<string, unknown> | undefined },
      { next: (r) => (result = r as ExecutionResult<TData>), error: reject, complete: () => (result ? resolve(result) : reject(new Error('no result'))) },
    );
  });
}

/** Subscribes and collects events; `ready` resolves once the server acknowledged the subscription is live. */
export function wsSubscribe<TData, TVars>(client: Client, document: TypedDocumentNode<TData, TVars>, variables?: TVars) {
  const events: Array<ExecutionResult<TData>> = [];
  const waiters: Array<() => void> = [];
  const dispose = client.subscribe<TData>(
    { query: print(document), variables: variables as Record<string, unknown> | undefined },
    {
      next: (r) => {
        events.push(r as ExecutionResult<TData>);
        waiters.splice(0).forEach((w) => w());
      },
      error: () => undefined,
      complete: () => undefined,
    },
  );
  return {
    events,
    dispose,
    async next(timeoutMs = 5000): Promise<ExecutionResult<TData>> {
      const start = events.length;
      if (events.length > start) return events[start];
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('timed out waiting for a subscription event')), timeoutMs);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
      return events[start];
    },
  };
}
