import type { CheckReport } from './run-channel-check.ts';

/**
 * The report as the terminal shows it: one line per check, `ok` or `FAIL` with the reason, and
 * a last line with the counts.
 * @example process.stdout.write(formatCheckReport(report));
 */
export function formatCheckReport(report: CheckReport): string {
  const lines = report.results.map((result) => `${result.ok ? 'ok  ' : 'FAIL'}  ${result.name}${result.detail ? ` — ${result.detail}` : ''}`);
  const failed = report.results.filter((result) => !result.ok).length;
  const summary = failed === 0 ? `channel "${report.channel}": all ${report.results.length} checks passed` : `channel "${report.channel}": ${failed} of ${report.results.length} checks FAILED`;
  return `${lines.join('\n')}\n${summary}\n`;
}
