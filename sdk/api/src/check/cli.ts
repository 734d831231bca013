#!/usr/bin/env node
/**
 * `bot-channel-check <package folder>`: the author kit for a channel package outside the bot
 * host. Prints the report; exits 1 when a check fails, 2 when the package cannot be checked.
 */
import { checkPackageInProcess } from './check-package-in-process.ts';
import { formatCheckReport } from './format-report.ts';

const folder = process.argv[2];
if (!folder || process.argv.length > 3) {
  process.stderr.write('usage: bot-channel-check <package folder>\n');
  process.exit(2);
}
try {
  const report = await checkPackageInProcess(folder);
  process.stdout.write(formatCheckReport(report));
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  process.stderr.write(`bot-channel-check: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
