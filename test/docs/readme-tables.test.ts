import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { configSchema } from '../../host/config/config.schema.ts';
import { ERROR_CODES } from '../../host/errors/error-codes.ts';

// The reference tables live in docs/ since the README became a front page.
const configurationDoc = await readFile(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const errorCodesDoc = await readFile(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');

/** Rows of the table that follows the given heading in `doc`, as `[firstCell, secondCell]`. */
function tableAfter(doc: string, heading: string): string[][] {
  const start = doc.indexOf(heading);
  assert.ok(start >= 0, `no "${heading}" section`);
  const rows: string[][] = [];
  for (const line of doc.slice(start).split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('| `')) continue;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim().replace(/^`|`$/g, '')));
  }
  return rows;
}

test('the error table (docs/error-codes.md) lists exactly the declared error codes with their statuses', () => {
  const documented = tableAfter(errorCodesDoc, '## Error codes');
  const listed = new Set(documented.map(([code]) => code));
  const missing = Object.keys(ERROR_CODES).filter((code) => !listed.has(code));
  assert.deepEqual(missing, [], 'codes of host/errors missing from docs/error-codes.md');
  assert.deepEqual(documented.map(([code]) => code).sort(), Object.keys(ERROR_CODES).sort());
  for (const [code, status] of documented) {
    assert.equal(Number(status), ERROR_CODES[code as keyof typeof ERROR_CODES].status, `status of ${code}`);
  }
});

test('the configuration table (docs/configuration.md) lists exactly the variables the host reads', () => {
  const documented = tableAfter(configurationDoc, '## Configuration').map(([name]) => name);
  assert.deepEqual(documented.sort(), Object.keys(configSchema.shape).sort());
});
