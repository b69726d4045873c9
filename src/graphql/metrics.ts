import { boundedLabel, type Metrics } from '../observability/metrics';

export interface OperationOutcome {
  /** The operation's name, or null for an anonymous (or unparsed) one. */
  name: string | null | undefined;
  /** query, mutation, subscription, or unknown when refused before an operation was resolved. */
  type: string | undefined;
  failed: boolean;
  startedAt: bigint;
}

/** Records one finished GraphQL operation, whichever transport ran it. */
export function operationRecorder(metrics: Metrics) {
  // Operation names are the client's: bounded, so invented names cannot grow the series.
  const label = boundedLabel();
  return (outcome: OperationOutcome): void => {
    const operation = outcome.name ? label(outcome.name) : 'anonymous';
    const type = outcome.type ?? 'unknown';
    metrics.graphqlOperations.inc({ operation, type, outcome: outcome.failed ? 'error' : 'ok' });
    metrics.graphqlDuration.observe({ operation, type }, Number(process.hrtime.bigint() - outcome.startedAt) / 1e9);
  };
}
