import type { ChannelPackageFailure } from '../../../api/api-types.ts';

/** What this instance could not apply of the installed set (it serves what it had); nothing when all applied. */
export function PackageFailures({ failures }: { failures: ChannelPackageFailure[] }) {
  if (failures.length === 0) return null;
  return (
    <section aria-labelledby="failures-heading">
      <h2 id="failures-heading">Not applied on this instance</h2>
      <p>This instance keeps serving the versions it had for these:</p>
      <ul className="problems">
        {failures.map((failure) => (
          <li key={`${failure.name}@${failure.version}`}>
            {failure.name}@{failure.version}: <code>{failure.code}</code> {failure.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
