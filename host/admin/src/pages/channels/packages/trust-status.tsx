import type { ChannelPackageTrust } from '../../../api/api-types.ts';

/** What each trust status means, in plain words. */
export const TRUST_EXPLANATIONS: Record<ChannelPackageTrust, string> = {
  verified: "The registry signed this version and the signature verifies with the registry's published keys: the tarball is the one the registry vouches for.",
  unsigned: 'The registry gives no signature for this version: only its sha512 checksum, checked against the registry’s, vouches for the tarball. Pin the integrity you reviewed.',
  pinned: 'An uploaded tarball that matches the integrity pinned for it.',
  unverified: 'An uploaded tarball with no pinned integrity: nothing vouches for it.',
};

/** A package's trust status; `explained` writes out what it means (otherwise shown on hover). */
export function TrustStatus({ trust, explained = false }: { trust: ChannelPackageTrust; explained?: boolean }) {
  return (
    <span data-trust={trust}>
      <strong className={`trust-${trust}`} title={explained ? undefined : TRUST_EXPLANATIONS[trust]}>
        {trust}
      </strong>
      {explained && <> — {TRUST_EXPLANATIONS[trust]}</>}
    </span>
  );
}
