import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcError } from '@mysten/sui/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcWebClient } from '../../src/providers/sui-grpc-web.js';

// The event source's gRPC-web calls against a plain HTTP server that answers as a full node's
// gRPC-web endpoint would: statuses in headers or trailers, HTTP errors, broken connections.

const frame = (flag: number, payload: Buffer) => Buffer.concat([Buffer.from([flag, ...[24, 16, 8, 0].map((s) => (payload.length >>> s) & 0xff)]), payload]);
const trailer = (status: number, message = '') => frame(0x80, Buffer.from(`grpc-status:${status}\r\ngrpc-message:${encodeURIComponent(message)}\r\n`));

type Answer = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void;
const answers: Record<string, Answer> = {
  '/svc/Ok': (req, body, res) => {
    res.writeHead(200, { 'content-type': 'application/grpc-web+proto' });
    // Echo the request message and the protocol headers, then a second message, then OK.
    res.end(Buffer.concat([frame(0, body.subarray(5)), frame(0, Buffer.from(`${req.headers['content-type']}|${req.headers['x-sui-client-protocol-version'] ?? ''}`)), trailer(0)]));
  },
  '/svc/TrailersOnly': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/grpc-web+proto', 'grpc-status': '14', 'grpc-message': 'try%20later' });
    res.end();
  },
  '/svc/TrailerError': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/grpc-web+proto' });
    res.end(trailer(3, 'bad filter'));
  },
  '/svc/Http503': (_req, _body, res) => {
    res.writeHead(503);
    res.end('overloaded');
  },
  '/svc/NoStatus': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/grpc-web+proto' });
    res.end(frame(0, Buffer.from('x')));
  },
  '/svc/CutShort': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/grpc-web+proto', 'content-length': '100' });
    res.write(frame(0, Buffer.from('x')), () => res.socket?.destroy());
  },
  '/svc/Slow': () => undefined,
};

let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answers[req.url ?? '']?.(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof RpcError ? error.code : `not an RpcError: ${String(error)}`),
  );

describe('gRPC-web client', () => {
  it('sends one framed message with the SDK headers and returns the data frames', async () => {
    const messages = await createGrpcWebClient(`${url}/`).call('svc/Ok', Buffer.from('hello'));
    expect(messages.map(String)).toEqual(['hello', expect.stringMatching(/^application\/grpc-web\+proto\|\d+$/)]);
  });

  it('reports statuses as the SDK transport does: codes from headers, trailers or the HTTP status', async () => {
    const client = createGrpcWebClient(url);
    await expect(client.call('svc/TrailersOnly', Buffer.alloc(0))).rejects.toThrow('try later');
    expect(await codeOf(client.call('svc/TrailersOnly', Buffer.alloc(0)))).toBe('UNAVAILABLE');
    expect(await codeOf(client.call('svc/TrailerError', Buffer.alloc(0)))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(client.call('svc/Http503', Buffer.alloc(0)))).toBe('UNAVAILABLE');
    expect(await codeOf(client.call('svc/NoStatus', Buffer.alloc(0)))).toBe('INTERNAL');
    expect(await codeOf(client.call('svc/CutShort', Buffer.alloc(0)))).toBe('UNAVAILABLE');
  });

  it('reports a refused connection as UNAVAILABLE (retryable) and an abort as the abort', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await codeOf(createGrpcWebClient(`http://127.0.0.1:${port}`).call('svc/Ok', Buffer.alloc(0)))).toBe('UNAVAILABLE');

    const controller = new AbortController();
    const call = createGrpcWebClient(url).call('svc/Slow', Buffer.alloc(0), controller.signal);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});
