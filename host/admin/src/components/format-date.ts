/** A timestamp as people read it, in the browser's locale. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}
