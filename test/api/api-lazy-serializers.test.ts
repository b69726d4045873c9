// Response serializers compiled on a route's first reply (src/http/lazy-serializers.ts) answer as
// the schema was declared, even when something rewrites the route's schema in place after it was
// registered, and as Fastify's eager serializers do.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazySerializerFactory } from '../../src/http/lazy-serializers';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const schema = () => ({
  response: {
    200: { type: 'object', properties: { accessToken: { type: 'string' }, refreshToken: { type: 'string' }, expiresIn: { type: 'integer' } }, required: ['accessToken'] },
    '4xx': { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string' } } } } },
  },
});

async function appWith(lazy: boolean): Promise<FastifyInstance> {
  const app = Fastify(lazy ? { schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } } } : {});
  apps.push(app);
  const declared = schema();
  app.get('/token', { schema: declared }, async (request, reply) =>
    request.query && (request.query as { fail?: string }).fail ? reply.code(409).send({ error: { code: 'CONFLICT', stack: 'x' } }) : { accessToken: 'a', refreshToken: 'r', expiresIn: '60', secret: 's' },
  );
  await app.ready();
  // What an OpenAPI transform may do to the schema object once routes are registered.
  delete (declared.response[200].properties as Record<string, unknown>).refreshToken;
  return app;
}

describe('lazily compiled response serializers', () => {
  it('serialize as declared at registration, exactly as the eager ones, for each status', async () => {
    const [lazy, eager] = await Promise.all([appWith(true), appWith(false)]);
    for (const url of ['/token', '/token?fail=1']) {
      const [a, b] = await Promise.all([lazy.inject({ url }), eager.inject({ url })]);
      expect(a.statusCode).toBe(b.statusCode);
      expect(a.body).toBe(b.body);
    }
    expect((await lazy.inject({ url: '/token' })).json()).toEqual({ accessToken: 'a', refreshToken: 'r', expiresIn: 60 });
    expect((await lazy.inject({ url: '/token?fail=1' })).json()).toEqual({ error: { code: 'CONFLICT' } });
  });
});
