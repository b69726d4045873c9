/**
 * deploy/prometheus/alerts.yml: promtool accepts it and its unit tests (alerts.test.yml) pass; every
 * alert has a severity, a summary and a runbook anchor that exists in docs/operations.md, and is
 * unit-tested both firing and not firing. The generated scrape configs (start:cluster's, compose's)
 * and the Kubernetes example pass `promtool check config` with the rules loaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { composePrometheusConfig, renderPrometheusConfig } from '../../scripts/prometheus-config';
import { ALERTS_FILE, PROMETHEUS_DIR, alertRules, prometheusInstalled } from '../helpers/prometheus';

const run = prometheusInstalled('alert-rules tests');
const promtool = (...args: string[]) => spawnSync('promtool', args, { encoding: 'utf8', cwd: PROMETHEUS_DIR });
const tmp = mkdtempSync(join(tmpdir(), 'alert-rules-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface RuleTest {
  alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }>;
}

describe('alert rules', () => {
  it('each alert has a severity, a summary and a runbook line in docs/operations.md', () => {
    const docs = readFileSync(join(PROMETHEUS_DIR, '../../docs/operations.md'), 'utf8');
    const rules = alertRules();
    expect(rules.length).toBeGreaterThanOrEqual(15);
    for (const r of rules) {
      expect(['critical', 'warning'], r.alert).toContain(r.labels?.severity);
      expect(r.annotations?.summary, r.alert).toMatch(/\S/);
      expect(r.annotations?.runbook, r.alert).toBe(`docs/operations.md#alert-${r.alert.toLowerCase()}`);
      // The anchor sits on the alert's runbook line.
      expect(docs, r.alert).toMatch(new RegExp(`<a id="alert-${r.alert.toLowerCase()}"></a>\\*\\*${r.alert}\\*\\*`));
    }
  });

  it('alerts.test.yml tests every alert firing and not firing', () => {
    const tests = (parse(readFileSync(join(PROMETHEUS_DIR, 'alerts.test.yml'), 'utf8')) as { tests: RuleTest[] }).tests;
    const cases = tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const { alert } of alertRules()) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(mine.some((c) => (c.exp_alerts ?? []).length > 0), `${alert} firing`).toBe(true);
      expect(mine.some((c) => (c.exp_alerts ?? []).length === 0), `${alert} not firing`).toBe(true);
    }
  });

  it.runIf(run)('promtool check rules and promtool test rules pass', () => {
    const check = promtool('check', 'rules', ALERTS_FILE);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const test = promtool('test', 'rules', 'alerts.test.yml');
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toContain('SUCCESS');
  });

  it.runIf(run)('start:cluster, compose and Kubernetes scrape configs pass promtool check config', () => {
    const files = {
      cluster: renderPrometheusConfig({
        ruleFiles: [ALERTS_FILE],
        jobs: { api: [{ name: 'api-1', address: '127.0.0.1:3101' }], jobs: [{ name: 'jobs', address: '127.0.0.1:3191' }], haproxy: [{ name: 'edge', address: '127.0.0.1:8404' }] },
      }),
      // Their rules are mounted at /etc/prometheus/alerts.yml; here they are read from the repository.
      compose: composePrometheusConfig(3).replaceAll('/etc/prometheus/alerts.yml', ALERTS_FILE),
      // Debian's Prometheus is built without Kubernetes discovery: the pod discovery is swapped for an empty static
      // list so promtool still checks everything else (the relabelling of the annotations included).
      kubernetes: readFileSync(join(PROMETHEUS_DIR, 'prometheus.kubernetes.yml'), 'utf8')
        .replaceAll('/etc/prometheus/alerts.yml', ALERTS_FILE)
        .replace(/kubernetes_sd_configs:\n\s+- role: pod/, 'static_configs: []'),
    };
    for (const [name, text] of Object.entries(files)) {
      const file = join(tmp, `${name}.yml`);
      writeFileSync(file, text);
      const check = promtool('check', 'config', file);
      expect(check.status, `${name}: ${check.stdout}${check.stderr}`).toBe(0);
      expect(check.stdout).toContain(`${alertRules().length} rules found`);
    }
    // The checked-in compose file is the generator's output (check:generated says the same).
    expect(readFileSync(join(PROMETHEUS_DIR, 'prometheus.compose.yml'), 'utf8')).toBe(composePrometheusConfig(3));
  });
});
