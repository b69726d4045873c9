// Property-based fuzzing of every documented /api operation, in the spirit of schemathesis: each
// operation gets values of the wrong type, size or alphabet in its path, query and body, with and
// without an access token, and must answer with a documented status, never INTERNAL, and every
// refusal in the one error shape.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../helpers/api';
import { fuzzRuns, oddText, startFuzzTarget } from '../helpers/fuzz';

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  responses?: Record<string, unknown>;
}

let api: TestApi;
let token: string;
let operations: Array<{ method: string; path: string; op: Operation }>;

beforeAll(async () => {
  ({ api, token } = await startFuzzTarget());
  const doc = (await api.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}, 120_000);
afterAll(async () => {
  await api?.close();
});

// Dot segments are resolved by every HTTP client before a request is sent (RFC 3986 §5.2.4).
const oddSegment = oddText.filter((v) => v !== '.' && v !== '..');
// A lone surrogate cannot be percent-encoded (URIError); UTF-8 round-tripping turns it into U+FFFD.
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8');
const oddJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), oddText, fc.constant(null), fc.integer(), fc.double(), fc.boolean());

function requestArbitrary(op: Operation, path: string) {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodyProps = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
  return fc.record({
    path: fc.tuple(...pathParams.map(() => oddSegment)).map((values) => pathParams.reduce((p, param, i) => p.replace(`{${param.name}}`, encodeURIComponent(wellFormed(values[i]))), path)),
    query: fc.tuple(...queryParams.map(() => fc.option(oddText, { nil: undefined }))).map((values) => {
      const q = new URLSearchParams();
      queryParams.forEach((param, i) => values[i] !== undefined && q.append(param.name, values[i]!));
      return q.toString();
    }),
    body: op.requestBody
      ? fc.oneof(oddJson, fc.dictionary(fc.constantFrom(...bodyProps, 'unexpected'), oddJson, { maxKeys: bodyProps.length + 1 }))
      : fc.constant(undefined),
    authorized: fc.boolean(),
  });
}

describe('every /api operation under fuzzed input', () => {
  it('answers documented statuses, never INTERNAL, and refuses in the error shape', async () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const { method, path, op } of operations) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op, path), async (req) => {
          const res = await api.app.inject({
            method: method as 'GET',
            url: `${req.path}${req.query ? `?${req.query}` : ''}`,
            headers: { ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(req.authorized ? { authorization: `Bearer ${token}` } : {}) },
            payload: req.body === undefined ? undefined : JSON.stringify(req.body),
          });
          const where = `${method} ${path} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).not.toBe(500);
          expect(Object.keys(op.responses ?? {}), where).toContain(String(res.statusCode));
          if (res.statusCode >= 400) {
            const body = res.json() as { error?: { code?: unknown; message?: unknown; requestId?: unknown } };
            expect(typeof body.error?.code, where).toBe('string');
            expect(typeof body.error?.message, where).toBe('string');
            expect(typeof body.error?.requestId, where).toBe('string');
          }
        }),
        fuzzRuns(30),
      );
    }
  }, 300_000);
});
