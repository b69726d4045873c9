import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tightestCharge } from '../edge/rate-limit';
import { routeOf } from '../fastify/route-hooks';
import type { Metrics } from '../observability/metrics';
import type { SharedStore } from '../store';
import { chargeRate, isOverLimit, rateLimited, type RateCharge } from '../store/rate-limit';

export interface AdmissionOptions {
  store: SharedStore;
  max: number;
  windowMs: number;
  metrics?: Metrics;
}

type Scope = 'ip' | 'wallet';

/**
 * Fixed-window admission: each request is charged to the trusted client IP and, when it
 * carries a verified JWT, also to the wallet. Counters live in the shared store, so every
 * replica sees the same totals (a busy key's charges go to Redis together, src/store/failover.ts).
 * Routes override through `config.rateLimit`. While counts are per process (a Redis outage), the
 * store gives each replica a share of the limit.
 */
export function registerAdmission(app: FastifyInstance, opts: AdmissionOptions): void {
  const defaultLimit = { max: opts.max, windowMs: opts.windowMs };
  app.addHook('onRequest', (request, reply, done) => {
    const override = routeOf(request).config?.rateLimit;
    if (override === false) return done();
    const limit = override ? { max: override.max ?? opts.max, windowMs: override.windowMs ?? opts.windowMs } : defaultLimit;
    const bucket = override?.bucket ?? (override ? routeKey(request) : 'default');
    const ip = chargeRate(opts.store, `adm:${bucket}:ip:${request.ip}`, limit);
    const wallet = request.auth ? chargeRate(opts.store, `adm:${bucket}:wallet:${request.auth.wallet}`, limit) : null;
    // Most requests carry no token: their one charge is awaited alone.
    if (!wallet) ip.then((charge) => done(admit(reply, [['ip', charge]], limit.windowMs)), done);
    else Promise.all([ip, wallet]).then(([i, w]) => done(admit(reply, [['ip', i], ['wallet', w]], limit.windowMs)), done);
  });

  function admit(reply: FastifyReply, charges: ReadonlyArray<readonly [Scope, RateCharge]>, windowMs: number): Error | undefined {
    const { scope, charge } = tightestCharge(charges);
    setRateHeaders(reply, charge);
    if (!isOverLimit(charge)) return undefined;
    opts.metrics?.admissionRejections.inc({ scope });
    return rateLimited(`Too many requests: limit is ${charge.limit} per ${windowMs / 1000} s`, scope, charge.resetMs);
  }
}

function routeKey(request: FastifyRequest): string {
  return `${request.method}:${routeOf(request).url ?? 'unmatched'}`;
}

function setRateHeaders(reply: FastifyReply, r: RateCharge): void {
  reply.header('ratelimit-limit', String(r.limit));
  reply.header('ratelimit-remaining', String(Math.max(0, r.limit - r.count)));
  reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(r.resetMs / 1000))));
}
