/** The largest millisecond timestamp a `Date` can hold. */
const MAX_DATE_MS = 8.64e15;

/**
 * A Slack time as a `Date`: a message `ts` or `action_ts` (`"1355517523.000005"`, seconds with
 * a sequence number) or an `event_time` (seconds). Undefined when absent or unreadable.
 * @example slackTimeToDate('1355517523.000005') // 2012-12-14T20:38:43.000Z
 */
export function slackTimeToDate(value: string | number | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const seconds = typeof value === 'number' ? value : /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  const ms = Math.floor(seconds * 1000);
  return Number.isFinite(ms) && ms > 0 && ms <= MAX_DATE_MS ? new Date(ms) : undefined;
}
