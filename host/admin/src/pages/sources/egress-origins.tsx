/**
 * Where this source's settings let its channel's plugin send (its `x-egress` origins, loopback and
 * internal addresses included), as granted: a field left to its default, or a value saved while
 * its setting was not marked `x-egress`, grants nothing, so the operator sees here exactly what was
 * granted.
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
