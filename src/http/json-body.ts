import type { FastifyInstance } from 'fastify';
import type { JsonDepthRule } from '../edge/json-depth';
import { addRouteHook, routeMethods } from '../fastify/route-hooks';

/**
 * Fastify's own JSON parser (secure-json-parse, the body limit), after the nesting bound of
 * src/edge/json-depth.ts is checked on the text: every JSON body, REST and GraphQL, is refused
 * there (400 VALIDATION_FAILED) before any hook or handler can walk it recursively.
 */
export function registerJsonBodyParser(app: FastifyInstance, depth: JsonDepthRule): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const refusal = depth.judgeText(body as string, 'request body');
    if (refusal) return done(refusal, undefined);
    parse(request, body as string, done);
  });
}

/** GraphQL over GET carries JSON in the query string (`variables`, `extensions`): the same bound, before Apollo parses it. */
export function registerGraphqlGetDepthCheck(app: FastifyInstance, depth: JsonDepthRule, url = '/graphql'): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== url || !routeMethods(route).includes('GET')) return;
    addRouteHook(
      route,
      'preValidation',
      async (request) => {
        const query = request.query as Record<string, unknown> | null;
        for (const name of ['variables', 'extensions']) {
          const text = query?.[name];
          const refusal = typeof text === 'string' ? depth.judgeText(text, `query parameter "${name}"`) : null;
          if (refusal) throw refusal;
        }
      },
      'first',
    );
  });
}
