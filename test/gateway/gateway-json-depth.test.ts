import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startApi, type TestApi } from '../helpers/api';
import { openGraphqlWs } from '../helpers/graphql-wire';
import { connectSocket, emitAck } from './gateway-helpers';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
const refused = { code: 'VALIDATION_FAILED', details: { setting: 'INPUT.JSON_MAX_DEPTH', maxDepth: 64 } };

describe('nesting depth of websocket input (INPUT.JSON_MAX_DEPTH), as on HTTP', () => {
  let api: TestApi;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await api?.close();
  });

  it('graphql-ws: an operation whose variables nest too deep is refused alone; the connection goes on', async () => {
    const conn = await openGraphqlWs(api.wsUrl);
    expect(conn.acknowledged).toBe(true);
    const deep = await conn.run({ query: '{ __typename }', variables: { v: nested(100) } });
    expect(deep).toMatchObject({ errors: [{ extensions: refused }] });
    expect(await conn.run({ query: '{ __typename }', variables: { v: nested(10) } })).toEqual({ result: { data: { __typename: 'Query' } } });
    await conn.close();
  });

  it('graphql-ws: a non-operation message nested too deep closes the connection with 4400', async () => {
    const conn = await openGraphqlWs(api.wsUrl);
    const outcome = await conn.exchange(JSON.stringify({ type: 'ping', payload: { v: nested(100) } }), 'none');
    expect(outcome).toMatchObject({ closed: { code: 4400, reason: expect.stringContaining('INPUT.JSON_MAX_DEPTH') } });
  });

  it('Socket.IO: an event payload nested too deep is refused in its acknowledgement; the socket goes on', async () => {
    const socket = await connectSocket(api.url, { transports: ['websocket'] });
    sockets.push(socket);
    expect(await emitAck(socket, 'room:join', { room: nested(100) })).toMatchObject({ ok: false, error: refused });
    expect(await emitAck(socket, 'room:join', { room: 'game:depth' })).toMatchObject({ ok: true });
  });
});
