import http from 'node:http';
import https from 'node:https';
import { GrpcStatusCode, GrpcWebFetchTransport, RpcError } from '@mysten/sui/grpc';

/**
 * gRPC-web calls (binary format) over node:http with kept-alive connections: the request message
 * framed, the whole response read into one buffer, its data frames returned once the status says
 * OK. The SDK's transport does the same through `fetch` and web streams, which cost the indexer
 * about a fifth of its CPU in a backfill; status and failures come out as the SDK's `RpcError`
 * (same codes), so callers classify them as before.
 */
export interface GrpcWebClient {
  /** Calls `service/method` with one encoded request message; resolves with the encoded response messages. */
  call(method: string, request: Uint8Array, signal?: AbortSignal): Promise<Buffer[]>;
}

const DATA = 0x00;
const TRAILER = 0x80;
const COMPRESSED = 0x01;

/** gRPC's mapping of HTTP statuses without a gRPC status (doc/http-grpc-status-mapping.md). */
function httpStatusCode(status: number): GrpcStatusCode {
  switch (status) {
    case 400:
      return GrpcStatusCode.INTERNAL;
    case 401:
      return GrpcStatusCode.UNAUTHENTICATED;
    case 403:
      return GrpcStatusCode.PERMISSION_DENIED;
    case 404:
      return GrpcStatusCode.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return GrpcStatusCode.UNAVAILABLE;
    default:
      return GrpcStatusCode.UNKNOWN;
  }
}

const rpcError = (code: GrpcStatusCode, message: string, cause?: unknown): RpcError =>
  Object.assign(new RpcError(message, GrpcStatusCode[code] ?? String(code)), cause === undefined ? {} : { cause });

function decodeMessage(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `grpc-status` / `grpc-message` from a trailer frame's header lines. */
function parseTrailer(text: string): { status?: number; message: string } {
  let status: number | undefined;
  let message = '';
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'grpc-status') status = Number(value);
    else if (name === 'grpc-message') message = decodeMessage(value);
  }
  return { status, message };
}

/** The data frames of a complete gRPC-web body, once its status is OK. */
function readBody(body: Buffer, headers: http.IncomingHttpHeaders, httpStatus: number): Buffer[] {
  const headerStatus = headers['grpc-status'];
  if (headerStatus !== undefined) {
    // Trailers-only response: the status came with the headers.
    const code = Number(headerStatus);
    if (code !== GrpcStatusCode.OK) throw rpcError(code, decodeMessage(String(headers['grpc-message'] ?? '')));
  } else if (httpStatus < 200 || httpStatus >= 300) {
    throw rpcError(httpStatusCode(httpStatus), `HTTP ${httpStatus}`);
  }
  const messages: Buffer[] = [];
  let trailer: { status?: number; message: string } | undefined;
  let at = 0;
  while (at < body.length) {
    if (at + 5 > body.length) throw rpcError(GrpcStatusCode.INTERNAL, 'premature end of a gRPC-web frame header');
    const flag = body[at];
    const length = body.readUInt32BE(at + 1);
    const end = at + 5 + length;
    if (end > body.length) throw rpcError(GrpcStatusCode.INTERNAL, 'premature end of a gRPC-web frame');
    if (flag & COMPRESSED) throw rpcError(GrpcStatusCode.INTERNAL, 'compressed gRPC-web frame (none was asked for)');
    if (flag & TRAILER) trailer = parseTrailer(body.toString('latin1', at + 5, end));
    else if (flag === DATA) messages.push(body.subarray(at + 5, end));
    at = end;
  }
  if (headerStatus !== undefined) return messages;
  if (trailer?.status === undefined) throw rpcError(GrpcStatusCode.INTERNAL, 'gRPC-web response without a status');
  if (trailer.status !== GrpcStatusCode.OK) throw rpcError(trailer.status, trailer.message);
  return messages;
}

export function createGrpcWebClient(baseUrl: string): GrpcWebClient {
  const base = new URL(baseUrl.replace(/\/+$/, '') + '/');
  const secure = base.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const request = secure ? https.request : http.request;
  // The headers the SDK's transport sends with every call (its client protocol version).
  const sdkHeaders = Object.fromEntries(
    Object.entries(new GrpcWebFetchTransport({ baseUrl }).mergeOptions({}).meta ?? {}).map(([k, v]) => [k, String(v)]),
  );

  function call(method: string, message: Uint8Array, signal?: AbortSignal): Promise<Buffer[]> {
    const frame = Buffer.allocUnsafe(5 + message.length);
    frame[0] = DATA;
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, 5);
    return new Promise<Buffer[]>((resolve, reject) => {
      const req = request(
        new URL(method, base),
        {
          method: 'POST',
          agent,
          signal,
          headers: {
            ...sdkHeaders,
            'content-type': 'application/grpc-web+proto',
            accept: 'application/grpc-web+proto',
            'x-grpc-web': '1',
            'content-length': frame.length,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => reject(failed(error)));
          res.on('end', () => {
            if (!res.complete) return reject(rpcError(GrpcStatusCode.UNAVAILABLE, 'gRPC-web response cut short'));
            try {
              resolve(readBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), res.headers, res.statusCode ?? 0));
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      req.on('error', (error) => reject(failed(error)));
      req.end(frame);
    });

    /** A connection failure is UNAVAILABLE (retryable, as the SDK transport's `fetch` TypeError was); an abort stays an abort. */
    function failed(error: Error): Error {
      if (signal?.aborted) return error;
      return rpcError(GrpcStatusCode.UNAVAILABLE, `${method}: ${error.message}`, error);
    }
  }

  return { call };
}
