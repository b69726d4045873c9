import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { errorResponses } from './responses';

const healthSchema = {
  tags: ['health'],
  summary: 'Liveness',
  description: 'Answers while the process can serve HTTP; never touches the database or the chain. Exempt from admission.',
  response: {
    200: {
      type: 'object',
      required: ['status', 'network', 'version', 'uptimeSeconds'],
      properties: {
        status: { type: 'string', enum: ['ok'] },
        network: { type: 'string' },
        version: { type: 'string' },
        uptimeSeconds: { type: 'number' },
      },
    },
    ...errorResponses(['INTERNAL', 'REQUEST_TIMEOUT']),
  },
} as const;

/** Liveness only: answers while the process can serve HTTP; never touches the database or the chain. */
export async function healthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/health', { schema: healthSchema, config: { rateLimit: false } }, async () => services.system.info());
}
