/** One bus for every transport, and one executor: graphql-ws runs on the graphql-jit plans HTTP uses. */
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql, wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { collect, connectSocket, until } from './gateway-helpers';

async function compiledPlans(api: TestApi): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('graphql_jit_plans_total{outcome="compiled"}'));
  return Number(line?.split(' ')[1] ?? 0);
}

const typed = <T>(source: string) => parse(source) as unknown as TypedDocumentNode<T, Record<string, never>>;

describe('the bus and the executor behind graphql-ws and Socket.IO', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('a subscription over graphql-ws executes its events through a graphql-jit plan; a query shares its plan with HTTP', async () => {
    const ws = wsClient(api.wsUrl);
    try {
      const before = await compiledPlans(api);
      const sub = wsSubscribe(ws, typed<{ activity: { kind: string; summary: string } }>('subscription JitProbe { activity { kind summary } }'));
      await until(async () => {
        await api.services.activity.publish({ kind: 'bet', player: '0x1', summary: 'jit', at: new Date() });
        return sub.events.length > 0;
      }, 'the first activity event over graphql-ws');
      expect(sub.events[0]).toEqual({ data: { activity: { kind: 'bet', summary: 'jit' } } });
      // graphql-js would have compiled nothing: the event ran on a new graphql-jit plan
      expect(await compiledPlans(api)).toBe(before + 1);
      sub.dispose();

      const query = typed<{ serverStatus: { status: string } }>('query WsJitProbe { serverStatus { status } }');
      expect(await wsQuery(ws, query)).toEqual({ data: { serverStatus: { status: 'ok' } } });
      expect(await compiledPlans(api)).toBe(before + 2);
      // the same source over HTTP finds the plan graphql-ws compiled (one cache, keyed by the query hash)
      expect((await gql(api.url, query)).body).toEqual({ data: { serverStatus: { status: 'ok' } } });
      expect(await compiledPlans(api)).toBe(before + 2);
    } finally {
      await ws.dispose();
    }
  });

  it('an activity event published once reaches a graphql-ws subscriber and a Socket.IO client', async () => {
    const socket = await connectSocket(api.url);
    const overSocketIo = collect<{ summary: string }>(socket, 'activity');
    const ws = wsClient(api.wsUrl);
    const sub = wsSubscribe(ws, ActivityDocument);
    try {
      // warm-up events until both listeners are live (the graphql-ws subscription has no "live" signal)
      await until(async () => {
        await api.services.activity.publish({ kind: 'bet', player: '0x2', summary: 'warm-up', at: new Date() });
        return sub.events.length > 0 && overSocketIo.length > 0;
      }, 'both transports to receive activity');

      const at = new Date('2026-03-04T05:06:07Z');
      await api.services.activity.publish({ kind: 'bet', player: '0x3', summary: 'once', at });
      await until(() => sub.events.some((e) => e.data?.activity.summary === 'once') && overSocketIo.some((e) => e.summary === 'once'), 'the event on both transports');
      expect(sub.events.filter((e) => e.data?.activity.summary === 'once')).toEqual([
        { data: { activity: { kind: 'bet', player: '0x3', summary: 'once', at: '2026-03-04T05:06:07.000Z' } } },
      ]);
      expect(overSocketIo.filter((e) => e.summary === 'once')).toEqual([{ kind: 'bet', player: '0x3', summary: 'once', at: '2026-03-04T05:06:07.000Z' }]);
    } finally {
      sub.dispose();
      await ws.dispose();
      socket.close();
    }
  });
});
