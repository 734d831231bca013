/**
 * Where this source's settings let its channel's plugin send (its `x-egress` origins, loopback and
 * internal addresses included), as saved: a field left to its default grants nothing, so the
 * operator sees here exactly what was granted.
 */
export function EgressOrigins({ origins }: { origins: string[] }) {
  return (
    <p id="egress-origins">
      Egress its settings allow:{' '}
      {origins.length === 0
        ? 'none (only the hosts its package declares)'
        : origins.map((origin, index) => (
            <span key={origin}>
              {index > 0 && ', '}
              <code>{origin}</code>
            </span>
          ))}
    </p>
  );
}
