import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chargeTightest } from '../edge/rate-limit';
import type { Metrics } from '../observability/metrics';
import type { SharedStore } from '../store';
import { isOverLimit, rateLimited, type RateCharge } from '../store/rate-limit';

export interface AdmissionOptions {
  store: SharedStore;
  max: number;
  windowMs: number;
  metrics?: Metrics;
}

/**
 * Fixed-window admission: each request is charged to the trusted client IP and, when it
 * carries a verified JWT, also to the wallet. Counters live in the shared store, so every
 * replica sees the same totals. Routes override through `config.rateLimit`. While counts are
 * per process (a Redis outage), the store gives each replica a share of the limit.
 */
export function registerAdmission(app: FastifyInstance, opts: AdmissionOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    const override = request.routeOptions.config?.rateLimit;
    if (override === false) return;
    const max = override?.max ?? opts.max;
    const windowMs = override?.windowMs ?? opts.windowMs;
    const bucket = override?.bucket ?? (override ? routeKey(request) : 'default');
    const identities: Array<[scope: 'ip' | 'wallet', key: string]> = [['ip', `adm:${bucket}:ip:${request.ip}`]];
    if (request.auth) identities.push(['wallet', `adm:${bucket}:wallet:${request.auth.wallet}`]);
    const { scope, charge } = await chargeTightest(opts.store, identities, { max, windowMs });
    setRateHeaders(reply, charge);
    if (isOverLimit(charge)) {
      opts.metrics?.admissionRejections.inc({ scope });
      throw rateLimited(`Too many requests: limit is ${charge.limit} per ${windowMs / 1000} s`, scope, charge.resetMs);
    }
  });
}

function routeKey(request: FastifyRequest): string {
  return `${request.method}:${request.routeOptions.url ?? 'unmatched'}`;
}

function setRateHeaders(reply: FastifyReply, r: RateCharge): void {
  reply.header('ratelimit-limit', String(r.limit));
  reply.header('ratelimit-remaining', String(Math.max(0, r.limit - r.count)));
  reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(r.resetMs / 1000))));
}
