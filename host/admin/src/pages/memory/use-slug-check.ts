import { useEffect, useState } from 'react';
import { api, withQuery } from '../../api/api-client.ts';
import type { SlugCheck } from '../../api/api-types.ts';

/** What the server says about the slug being typed: checked 250 ms after the last keystroke. */
export function useSlugCheck(slug: string, excludeId: string | undefined): { check: SlugCheck | undefined; checking: boolean } {
  const [check, setCheck] = useState<SlugCheck>();
  useEffect(() => {
    if (slug === '') {
      setCheck({ slug, valid: false, available: false });
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      api.get<SlugCheck>(withQuery('/api/memory-definitions/slug-check', { slug, excludeId })).then(
        (result) => current && setCheck(result),
        () => current && setCheck(undefined),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [slug, excludeId]);
  return { check: check?.slug === slug ? check : undefined, checking: check?.slug !== slug };
}

/** The inline message for a checked slug, or undefined when it can be saved. */
export function slugMessage(check: SlugCheck | undefined): string | undefined {
  if (!check) return undefined;
  if (!check.valid) return check.slug === '' ? 'A slug is required' : 'Only lowercase letters a-z, digits and _ (at most 64)';
  if (!check.available) return `The slug "${check.slug}" is already taken`;
  return undefined;
}
