/**
 * The uuids that start with `text` (4 to 32 hex digits, dashes anywhere), as an inclusive range
 * a btree on a uuid column can answer, or undefined when `text` is not such a prefix. Lets an
 * operator find a row by the first digits the panel shows ("Web visitor 3f2a", run 3f2a1b2c).
 * @example uuidPrefixRange('3f2a') // ['3f2a0000-0000-0000-0000-000000000000', '3f2affff-ffff-ffff-ffff-ffffffffffff']
 */
export function uuidPrefixRange(text: string): [string, string] | undefined {
  const hex = text.trim().replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{4,32}$/.test(hex)) return undefined;
  return [asUuid(hex.padEnd(32, '0')), asUuid(hex.padEnd(32, 'f'))];
}

function asUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
