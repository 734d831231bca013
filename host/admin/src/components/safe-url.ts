/**
 * Whether a link may be followed: http(s), or relative to the panel. Anything with another scheme
 * (`javascript:`, `data:`, `mailto:`…) is dropped. Control characters and spaces are removed
 * first, as browsers do when they read a scheme (`java\tscript:`).
 * @example safeUrl('https://example.com') // 'https://example.com'; safeUrl('javascript:x') // null
 */
export function safeUrl(value: string): string | null {
  const compact = [...value].filter((char) => char.charCodeAt(0) > 0x20 && char.charCodeAt(0) !== 0x7f).join('');
  if (/^https?:/i.test(compact)) return value.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(compact) ? null : value.trim();
}
