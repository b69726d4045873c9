import type { AuditReport } from './audit';
import { RULES, type RuleId } from './rules';

/** One line per violation: the URL, the rule id, what was found. */
export const violationLines = (report: AuditReport): string[] => report.violations.map((v) => `${v.url}  ${v.rule}  ${v.detail}`);

/** Every rule with its count, then the total. */
export function summaryTable(report: AuditReport): string {
  const ids = Object.keys(RULES) as RuleId[];
  const width = Math.max(...ids.map((id) => id.length));
  const rows = ids.map((id) => `${id.padEnd(width)}  ${String(report.summary[id]).padStart(4)}  ${RULES[id]}`);
  const total = report.violations.length;
  return [`${'rule'.padEnd(width)}  ${'hits'.padStart(4)}  meaning`, ...rows, `${total} violation${total === 1 ? '' : 's'} (${report.network}, ${report.requests} requests)`].join('\n');
}

export const formatReport = (report: AuditReport): string => [...violationLines(report), ...(report.violations.length ? [''] : []), summaryTable(report)].join('\n') + '\n';
