import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedLines } from '../../../host/channels/runner/bounded-lines.ts';

/** Feeds the chunks to a splitter of `maxChars`, ends it, and returns the lines it handed on. */
function split(maxChars: number, chunks: Array<string | Buffer>): string[] {
  const lines: string[] = [];
  const splitter = new BoundedLines(maxChars, (line) => lines.push(line));
  for (const chunk of chunks) splitter.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  splitter.end();
  return lines;
}

const EURO = Buffer.from('€'); // 3 bytes

const CASES: Array<[string, number, Array<string | Buffer>, string[]]> = [
  ['splits lines on \\n and \\r\\n', 10, ['one\ntwo\r\nthree\n'], ['one', 'two', 'three']],
  ['joins a line written in several chunks', 10, ['on', 'e\ntw', 'o\n'], ['one', 'two']],
  ['keeps empty lines', 10, ['\n\na\n'], ['', '', 'a']],
  ['hands on a last line without a newline at the end', 10, ['a\nlast'], ['a', 'last']],
  ['hands on nothing more when the stream ends on a newline', 10, ['a\n'], ['a']],
  ['keeps a line of exactly the limit whole', 5, ['abcde\n'], ['abcde']],
  ['cuts a longer line at the limit and marks it once', 5, ['abcdefgh\nnext\n'], ['abcde…', 'next']],
  ['drops the rest of a cut line across chunks, up to its newline', 3, ['abcd', 'efgh', 'ij\nk\n'], ['abc…', 'k']],
  ['cuts a line that never ends', 3, ['abcd', 'efgh'], ['abc…']],
  ['decodes a character split across chunks', 10, [EURO.subarray(0, 1), EURO.subarray(1), Buffer.from('\n')], ['€']],
  ['counts characters, not bytes', 3, ['€€€\n€€€€\n'], ['€€€', '€€€…']],
  ['never cuts a surrogate pair in half', 3, ['ab😀c\n'], ['ab…']],
  ['replaces bytes that are not UTF-8', 10, [Buffer.from([0x61, 0xff, 0x62, 0x0a])], ['a\ufffdb']],
  ['ends a line whose last character is cut short by a newline', 10, [Buffer.concat([EURO.subarray(0, 2), Buffer.from('\nx\n')])], ['\ufffd', 'x']],
];

for (const [name, maxChars, chunks, expected] of CASES) {
  test(name, () => assert.deepEqual(split(maxChars, chunks), expected));
}

test('holds no more than the limit of a line that never ends, however long', () => {
  const lines: string[] = [];
  const splitter = new BoundedLines(2_000, (line) => lines.push(line));
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const before = process.memoryUsage().heapUsed;
  for (let index = 0; index < 16 * 1024; index++) splitter.write(chunk); // 1 GiB
  assert.ok(process.memoryUsage().heapUsed - before < 64 * 1024 * 1024);
  splitter.write(Buffer.from('\nafter\n'));
  assert.deepEqual(lines, [`${'A'.repeat(2_000)}…`, 'after']);
});

test('refuses a limit that is not a positive integer', () => {
  assert.throws(() => new BoundedLines(0, () => {}), /maxChars must be a positive integer/);
});
