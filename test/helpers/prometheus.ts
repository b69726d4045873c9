// Debian's Prometheus and promtool (`.ci/install-system-deps.sh`) for the observability tests, and the
// rule and dashboard files they check.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { testEnv } from './env';

export const PROMETHEUS_DIR = join(import.meta.dirname, '../../deploy/prometheus');
export const ALERTS_FILE = join(PROMETHEUS_DIR, 'alerts.yml');

const installed = (bin: string) => spawnSync(bin, ['--version'], { encoding: 'utf8' }).status === 0;

/** Whether Debian's `prometheus` package is here; under REQUIRE_SERVICES=1 its absence fails the run instead of skipping. */
export function prometheusInstalled(suite: string): boolean {
  const present = installed('promtool') && installed('prometheus');
  if (!present && testEnv.requireServices) throw new Error('REQUIRE_SERVICES=1 but prometheus/promtool is not installed (.ci/install-system-deps.sh installs it)');
  if (!present) console.warn(`${suite} skipped: Debian's prometheus package (prometheus, promtool) is not installed`);
  return present;
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export function alertRules(file = ALERTS_FILE): AlertRule[] {
  const doc = parse(readFileSync(file, 'utf8')) as { groups: Array<{ rules: AlertRule[] }> };
  return doc.groups.flatMap((g) => g.rules);
}
