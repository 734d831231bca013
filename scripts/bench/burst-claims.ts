/** Inbound events claimed by the host, by what brought the claim (`bot_inbound_event_claims_total`). */
export type Claims = Record<string, number>;

/** Claims that came by a timer: the message waited for one instead of being handed on. */
export const TIMER_TRIGGERS = ['poll', 'retry'];

const CLAIM_LINE = /^bot_inbound_event_claims_total\{trigger="([^"]+)"\} (\S+)$/gm;

/** Reads the host's claim counters from its `/metrics` (the counters of this one instance). */
export async function readClaims(hostUrl: string, metricsToken: string): Promise<Claims> {
  const response = await fetch(`${hostUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${hostUrl}/metrics answered ${response.status}: ${text}`);
  return Object.fromEntries([...text.matchAll(CLAIM_LINE)].map(([, trigger, value]) => [trigger!, Number(value)]));
}

/** The claims made between two readings, triggers with none left out. */
export function claimsSince(before: Claims, after: Claims): Claims {
  const made = Object.entries(after).map(([trigger, count]) => [trigger, count - (before[trigger] ?? 0)] as const);
  return Object.fromEntries(made.filter(([, count]) => count > 0));
}

/** Sums claims by trigger. */
export function addClaims(claims: Claims[]): Claims {
  const total: Claims = {};
  for (const each of claims) for (const [trigger, count] of Object.entries(each)) total[trigger] = (total[trigger] ?? 0) + count;
  return total;
}

export function timerClaims(claims: Claims): number {
  return TIMER_TRIGGERS.reduce((sum, trigger) => sum + (claims[trigger] ?? 0), 0);
}

/** `handoff 19, notify 1`, most first; `none` when empty. */
export function formatClaims(claims: Claims): string {
  const entries = Object.entries(claims).sort(([, a], [, b]) => b - a);
  return entries.length === 0 ? 'none' : entries.map(([trigger, count]) => `${trigger} ${count}`).join(', ');
}
