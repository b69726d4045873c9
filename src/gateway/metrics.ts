import { Counter, Gauge, type Registry } from 'prom-client';

export type GatewayTransport = 'graphql-ws' | 'socket.io';

/** The websocket gateway's series, shared by both transports. */
export interface GatewayMetrics {
  /** Events refused alone (the connection stays): RATE_LIMITED, PAYLOAD_TOO_LARGE; and connections closed for abuse (`abuse`). */
  refusals: Counter<'transport' | 'reason'>;
  /** Open connections of this process. */
  connections: Gauge<'transport'>;
  /** Broadcast subscription results executed and serialized (once per event and operation per process, whatever the subscribers). */
  broadcastExecutions: Counter;
  /** Broadcast frames not written because the subscriber's socket already held too much unsent data. */
  slowConsumerDrops: Counter<'transport'>;
}

const TRANSPORTS: readonly GatewayTransport[] = ['graphql-ws', 'socket.io'];

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  const metrics: GatewayMetrics = {
    refusals: new Counter({
      name: 'gateway_event_refusals_total',
      help: 'Websocket events refused by the per-connection caps (the connection stays), and connections closed for abuse',
      labelNames: ['transport', 'reason'] as const,
      registers: [registry],
    }),
    broadcastExecutions: new Counter({
      name: 'gateway_broadcast_executions_total',
      help: 'Broadcast subscription results executed and serialized by this process (once per event and operation, not per subscriber)',
      registers: [registry],
    }),
    slowConsumerDrops: new Counter({
      name: 'gateway_slow_consumer_drops_total',
      help: 'Broadcast frames dropped for a subscriber whose socket already held too much unsent data (it falls behind instead of growing memory)',
      labelNames: ['transport'] as const,
      registers: [registry],
    }),
    connections: new Gauge({ name: 'gateway_connections', help: 'Open websocket connections of this process', labelNames: ['transport'] as const, registers: [registry] }),
  };
  // Both transports' series exist from the start (0), so dashboards and rate() see them before the first event.
  for (const transport of TRANSPORTS) {
    metrics.connections.set({ transport }, 0);
    metrics.slowConsumerDrops.inc({ transport }, 0);
  }
  return metrics;
}
