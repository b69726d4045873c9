import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';

/** Liveness only: answers while the process can serve HTTP; never touches the database or the chain. */
export async function healthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/health', { config: { rateLimit: false } }, async () => services.system.info());
}
