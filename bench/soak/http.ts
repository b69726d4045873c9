// The soak's HTTP client: one undici pool per replica; every answer is timed and classified into
// the recorder (src/errors.ts' codes: 429 / RATE_LIMITED is a designed limit; the designed refusals
// are named by the caller).
import { Pool } from 'undici';
import type { Outcome, Recorder } from './recorder';

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  /** The virtual client's address (X-Forwarded-For: the replicas trust the driver as a proxy). */
  ip: string;
  json?: unknown;
  token?: string;
  /** Error codes that are this operation's designed answers. */
  designed?: readonly string[];
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  outcome: Outcome;
}

export interface HttpClient {
  readonly replicas: number;
  call(op: string, replica: number, call: HttpCall): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** The error code of a REST error body or of a GraphQL answer's first error. */
function errorCode(body: unknown): string | undefined {
  const b = body as { error?: { code?: string }; errors?: Array<{ extensions?: { code?: string } }> } | null;
  return b?.error?.code ?? b?.errors?.[0]?.extensions?.code ?? (b?.errors?.length ? 'GRAPHQL_ERROR' : undefined);
}

export function createHttpClient(urls: string[], recorder: Recorder, opts: { connections: number }): HttpClient {
  const pools = urls.map((url) => new Pool(url, { connections: opts.connections, pipelining: 1 }));
  return {
    replicas: urls.length,
    async call(op, replica, call) {
      const headers: Record<string, string> = { 'x-forwarded-for': call.ip };
      if (call.json !== undefined) headers['content-type'] = 'application/json';
      if (call.token) headers.authorization = `Bearer ${call.token}`;
      const started = performance.now();
      let status = 0;
      let body: unknown = null;
      let outcome: Outcome;
      let detail: string | undefined;
      try {
        const res = await pools[replica]!.request({ path: call.path, method: call.method, headers, body: call.json === undefined ? undefined : JSON.stringify(call.json) });
        status = res.statusCode;
        const text = await res.body.text();
        body = text ? JSON.parse(text) : null;
        const code = errorCode(body);
        if (status === 429 || code === 'RATE_LIMITED') outcome = 'limited';
        else if (code && call.designed?.includes(code)) outcome = 'designed';
        else if (status >= 200 && status < 300 && !code) outcome = 'ok';
        else {
          outcome = 'error';
          detail = `${status} ${code ?? text.slice(0, 120)}`;
        }
      } catch (err) {
        outcome = 'error';
        detail = (err as Error).message;
      }
      recorder.record(op, performance.now() - started, outcome, detail);
      return { status, body, outcome };
    },
    async close() {
      await Promise.all(pools.map((p) => p.close()));
    },
  };
}
