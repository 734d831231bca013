const UNITS: [seconds: number, singular: string, plural: string][] = [
  [86_400, 'day', 'days'],
  [3_600, 'hour', 'hours'],
  [60, 'minute', 'minutes'],
  [1, 'second', 'seconds'],
];

/**
 * A TTL as people read it: "permanent" when null, else its two largest units.
 * @example formatTtl(90_000) // "1 day 1 hour"
 */
export function formatTtl(ttlSeconds: number | null): string {
  if (ttlSeconds === null) return 'permanent';
  const parts: string[] = [];
  let rest = ttlSeconds;
  for (const [size, singular, plural] of UNITS) {
    const count = Math.floor(rest / size);
    if (count === 0) continue;
    parts.push(`${count} ${count === 1 ? singular : plural}`);
    rest -= count * size;
  }
  return parts.slice(0, 2).join(' ');
}

/** The TTL field's units, largest first. */
export const TTL_UNITS = [
  { label: 'days', seconds: 86_400 },
  { label: 'hours', seconds: 3_600 },
  { label: 'minutes', seconds: 60 },
  { label: 'seconds', seconds: 1 },
] as const;

/** The largest unit that divides the TTL exactly, to show an existing TTL in the form. */
export function ttlToField(ttlSeconds: number | null): { amount: string; unitSeconds: number } {
  if (ttlSeconds === null) return { amount: '', unitSeconds: 86_400 };
  const unit = TTL_UNITS.find(({ seconds }) => ttlSeconds % seconds === 0) ?? TTL_UNITS[3];
  return { amount: String(ttlSeconds / unit.seconds), unitSeconds: unit.seconds };
}

/** The form's TTL as the API takes it: null (permanent) when empty; the server checks the rest. */
export function fieldToTtl(amount: string, unitSeconds: number): number | null {
  if (amount.trim() === '') return null;
  return Number(amount) * unitSeconds;
}
