import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { configSchema } from '../../host/config/config.schema.ts';
import { ERROR_CODES } from '../../host/errors/error-codes.ts';

const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');

/** Rows of the README table that follows the given heading, as `[firstCell, secondCell]`. */
function tableAfter(heading: string): string[][] {
  const start = readme.indexOf(heading);
  assert.ok(start >= 0, `README has no "${heading}" section`);
  const rows: string[][] = [];
  for (const line of readme.slice(start).split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('| `')) continue;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim().replace(/^`|`$/g, '')));
  }
  return rows;
}

test('the README error table lists exactly the declared error codes with their statuses', () => {
  const documented = tableAfter('## Error codes');
  assert.deepEqual(documented.map(([code]) => code).sort(), Object.keys(ERROR_CODES).sort());
  for (const [code, status] of documented) {
    assert.equal(Number(status), ERROR_CODES[code as keyof typeof ERROR_CODES].status, `status of ${code}`);
  }
});

test('the README configuration table lists exactly the variables the host reads', () => {
  const documented = tableAfter('## Configuration').map(([name]) => name);
  assert.deepEqual(documented.sort(), Object.keys(configSchema.shape).sort());
});
