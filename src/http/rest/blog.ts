import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors';
import type { Services } from '../../services';
import { webhookRouteSchema } from './blog-schemas';
import { judgedByService } from './input-schema';

/** The content partner's article webhook (authenticated by a shared secret, not a JWT). */
export async function blogRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.post(
    '/blog/webhooks/contentpartner',
    {
      schema: webhookRouteSchema,
      // The schema documents the body; cms/webhook/parse.ts alone judges it, as sent: Fastify's Ajv would
      // coerce first (`"tags": "a,b"` into one tag) and every refusal carries the webhook's own code.
      ...judgedByService,
      config: { skipAuth: true, rateLimit: { max: 600, windowMs: 60_000, bucket: 'contentpartner' } },
      // Before body validation, so a caller without the secret learns nothing about the body.
      preValidation: async (request) => {
        if (!services.blog.authorizeWebhook(request.headers)) throw new AppError('UNAUTHENTICATED', 'Missing or invalid webhook secret');
      },
    },
    async (request, reply) => {
      const result = await services.blog.handleDelivery(request.body);
      reply.code(result.status);
      return {
        received: true,
        event: result.event,
        result: result.code,
        deliveryId: result.deliveryId ?? null,
        slug: result.slug ?? null,
        warnings: result.warnings ?? [],
        refresh: result.refresh ?? [],
      };
    },
  );
}
