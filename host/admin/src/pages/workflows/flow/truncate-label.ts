/**
 * Text cut to fit a node (SVG text does not wrap), with an ellipsis when cut.
 *
 * @example
 * truncateLabel('send_text_message', 8) // 'send_te…'
 */
export function truncateLabel(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
