import { Counter, type Registry } from 'prom-client';

export interface GiftMetrics {
  deliveries: Counter<'project'>;
  refusals: Counter<'reason'>;
  ipChecks: Counter<'outcome'>;
}

/** The gift series, in the process registry (served at /metrics); a private registry when none is given. */
export function createGiftMetrics(registry?: Registry): GiftMetrics {
  const registers = registry ? [registry] : [];
  return {
    deliveries: new Counter({ name: 'gift_deliveries_total', help: 'Gift URLs handed out, by project', labelNames: ['project'], registers }),
    refusals: new Counter({
      name: 'gift_refusals_total',
      help: 'Gift requests refused, by reason (proxy, project_quota, ip_quota, outside_schedule, stash_empty)',
      labelNames: ['reason'],
      registers,
    }),
    ipChecks: new Counter({
      name: 'ip_check_requests_total',
      help: 'Anti-proxy checks by outcome (clean, proxy, timeout, unreachable, http_status, bad_answer, not_configured); failures let the gift flow go on',
      labelNames: ['outcome'],
      registers,
    }),
  };
}
