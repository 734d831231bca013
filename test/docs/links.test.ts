import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', 'sdk/api/README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];
const LINK = /\]\(([^)\s]+)\)/g;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((match) => anchorOf(match[1]!)));
}

test('every relative link of the README and docs/ leads to a file and heading that exist', () => {
  const broken: string[] = [];
  for (const doc of DOCS) {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    for (const [, target] of text.matchAll(LINK)) {
      if (/^[a-z]+:/.test(target!)) continue; // http:, https:, mailto:
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = file === '' ? doc : path.normalize(path.join(path.dirname(doc), file));
      if (!existsSync(path.join(ROOT, resolved))) broken.push(`${doc}: ${target} (no ${resolved})`);
      else if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor)) broken.push(`${doc}: ${target} (no heading #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});
