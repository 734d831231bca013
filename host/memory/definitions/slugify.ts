/**
 * Slugs are the keys workflows use (`$context.memory.<slug>`, `update_memory` inputs), so they are
 * kept short enough to type and read in YAML. 64 characters also matches common identifier limits.
 */
export const MAX_SLUG_LENGTH = 64;

/** Names are headings in the Working Memory prompt and list labels; 200 keeps both readable. */
export const MAX_NAME_LENGTH = 200;

const SLUG_PATTERN = /^[a-z0-9_]+$/;

/**
 * Derives a slug from a definition name: lowercase, accents stripped, every run of other
 * characters turned into one `_`, no leading or trailing `_`, cut to {@link MAX_SLUG_LENGTH}.
 * May return `''` when the name has no letters or digits at all.
 *
 * @example
 * slugify('Customer Profile'); // 'customer_profile'
 * slugify('Préférences  (v2)'); // 'preferences_v2'
 */
export function slugify(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const slug = ascii.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  return trimUnderscores(trimUnderscores(slug).slice(0, MAX_SLUG_LENGTH));
}

/**
 * Whether a slug may be stored: only `a-z`, `0-9` and `_`, 1 to {@link MAX_SLUG_LENGTH} characters.
 *
 * @example
 * isValidSlug('customer_profile'); // true
 * isValidSlug('Customer-Profile'); // false
 */
export function isValidSlug(slug: string): boolean {
  return slug.length <= MAX_SLUG_LENGTH && SLUG_PATTERN.test(slug);
}

/** Why a slug is refused, for the 422 message; `undefined` when it is valid. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0) return 'The slug is empty';
  if (slug.length > MAX_SLUG_LENGTH) return `The slug is longer than ${MAX_SLUG_LENGTH} characters`;
  if (!SLUG_PATTERN.test(slug)) return 'The slug may only hold lowercase letters a-z, digits and _';
  return undefined;
}

function trimUnderscores(text: string): string {
  return text.replace(/^_+|_+$/g, '');
}
