import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, ERROR_STATUS, errorBody } from '../../errors';
import type { Services } from '../../services';
import { checkResult } from '../../services/system';
import { modelSchema } from './input-schema';
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

const readinessSchema = {
  tags: ['health'],
  summary: 'Readiness',
  description:
    'For the edge proxy and orchestrators: 200 while this replica can serve (database reachable within 750 ms, ' +
    "this build's migrations applied, not shutting down, nothing it serves still opening); otherwise 503 SERVICE_UNAVAILABLE with the failed checks in `details.checks`. " +
    'A shared-store (Redis) outage keeps it ready: `store: failed` and `degraded: ["store"]`, served on per-process limits and presence. ' +
    'Answers within 1 s whatever the database does. Exempt from admission.',
  response: {
    200: {
      type: 'object',
      required: ['status', 'checks'],
      properties: {
        status: { type: 'string', enum: ['ready'] },
        checks: {
          type: 'object',
          required: ['database', 'store', 'migrations', 'shuttingDown', 'startingUp'],
          properties: {
            database: modelSchema(checkResult),
            store: modelSchema(checkResult),
            migrations: modelSchema(checkResult),
            shuttingDown: { type: 'boolean' },
            /** A component this process serves still opening (readiness.startingUntil). */
            startingUp: { type: 'boolean' },
            /** Failed checks the replica serves through (a shared-store outage). */
            degraded: { type: 'array', items: { type: 'string', enum: ['store'] } },
          },
        },
      },
    },
    ...errorResponses(['INTERNAL', 'SERVICE_UNAVAILABLE', 'REQUEST_TIMEOUT']),
  },
} as const;

/** Liveness only: answers while the process can serve HTTP; never touches the database or the chain. */
export async function healthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/health', { schema: healthSchema, config: { rateLimit: false } }, async () => services.system.info());
  app.get('/health/ready', { schema: readinessSchema, config: { rateLimit: false } }, async (request, reply) => {
    const { ready, checks } = await services.readiness.check();
    if (ready) return { status: 'ready' as const, checks };
    // Answered, not thrown: an unready replica is an expected state, not a failed request to log as an error.
    const err = new AppError('SERVICE_UNAVAILABLE', 'This replica is not ready for traffic', { checks });
    // The typed reply knows only the 200 schema (error responses are a $ref).
    return (reply as FastifyReply).code(ERROR_STATUS.SERVICE_UNAVAILABLE).send(errorBody(err, request.id));
  });
}
