import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { Metrics } from '../observability/metrics';
import type { SharedStore } from '../store';

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
    const charges: Array<[scope: 'ip' | 'wallet', key: string]> = [['ip', `adm:${bucket}:ip:${request.ip}`]];
    if (request.auth) charges.push(['wallet', `adm:${bucket}:wallet:${request.auth.wallet}`]);
    const results = await Promise.all(charges.map(([, key]) => opts.store.hit(key, windowMs)));
    const checks = results.map((r) => ({ ...r, limit: Math.max(1, Math.floor(max * r.share)) }));
    let worst = checks[0];
    let worstScope = charges[0][0];
    checks.forEach((c, i) => {
      if (c.limit - c.count < worst.limit - worst.count) {
        worst = c;
        worstScope = charges[i][0];
      }
    });
    setRateHeaders(reply, worst);
    if (worst.count > worst.limit) {
      opts.metrics?.admissionRejections.inc({ scope: worstScope });
      reply.header('retry-after', String(Math.max(1, Math.ceil(worst.resetMs / 1000))));
      throw new AppError('RATE_LIMITED', `Too many requests: limit is ${worst.limit} per ${windowMs / 1000} s`, {
        scope: worstScope,
        retryAfterSeconds: Math.max(1, Math.ceil(worst.resetMs / 1000)),
      });
    }
  });
}

function routeKey(request: FastifyRequest): string {
  return `${request.method}:${request.routeOptions.url ?? 'unmatched'}`;
}

function setRateHeaders(reply: FastifyReply, r: { count: number; resetMs: number; limit: number }): void {
  reply.header('ratelimit-limit', String(r.limit));
  reply.header('ratelimit-remaining', String(Math.max(0, r.limit - r.count)));
  reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(r.resetMs / 1000))));
}
