/**
 * A skipped event's reason as the processor records it (terse, the same words as its warn log
 * line) turned into a sentence a newcomer can act on. An unknown reason is shown as it is.
 *
 * @example plainSkipReason('source inactive') // 'The source was inactive when it arrived.'
 */
export function plainSkipReason(reason: string | null): string {
  if (!reason) return 'No reason recorded.';
  if (reason.startsWith('no workflow')) {
    return 'Not answered: the source has no default workflow and the webhook URL named none. Set a default workflow on the source, then retry.';
  }
  if (reason === 'source inactive') return 'The source was inactive when it arrived.';
  if (reason === 'source deleted') return 'Its source has been deleted.';
  if (reason === 'no sender foreign id') return 'The event named no sender, so there was no one to answer.';
  if (/^workflow \S+ does not exist$/.test(reason)) return 'The workflow it was meant for no longer exists.';
  return reason;
}
