import type { ChannelPackage, ChannelPackagePreview } from '../../../api/api-types.ts';
import { formatDate } from '../../../components/format-date.ts';
import { EgressHosts } from './egress-hosts.tsx';
import { TrustStatus } from './trust-status.tsx';

const SDK = '@bot-ai/api';

/**
 * What a package would install, read before confirming; `installed` is the version it would
 * replace, `uploaded` the name of the file it was read from.
 */
export function PackagePreview({ preview, installed, uploaded }: { preview: ChannelPackagePreview; installed: ChannelPackage | undefined; uploaded?: string | undefined }) {
  const { manifest } = preview;
  return (
    <section className="package-preview" aria-label="Preview">
      <h3>
        {preview.name}@{preview.version}
      </h3>
      {installed && <p className="notice">{replacing(installed, preview)}</p>}
      <dl className="facts">
        <dt>Description</dt>
        <dd>{manifest.description ?? <span className="empty">none</span>}</dd>
        <dt>SDK range</dt>
        <dd>{manifest.peerDependencies[SDK] ? <code>{manifest.peerDependencies[SDK]}</code> : <span className="empty">none declared</span>}</dd>
        <dt>Egress hosts</dt>
        <dd data-fact="egress">
          <EgressHosts hosts={manifest.egress} />
        </dd>
        <dt>Dependencies</dt>
        <dd data-fact="dependencies">{dependencies(manifest.dependencies, manifest.bundleDependencies)}</dd>
        <dt>Install scripts</dt>
        <dd data-fact="install-scripts">{manifest.hasInstallScripts ? 'yes — the host never runs them' : 'none (the host would never run them)'}</dd>
        {uploaded === undefined ? (
          <>
            <dt>Published</dt>
            <dd>{preview.publishedAt ? formatDate(preview.publishedAt) : <span className="empty">unknown</span>}</dd>
          </>
        ) : (
          <>
            <dt>File</dt>
            <dd data-fact="file">{uploaded}</dd>
          </>
        )}
        <dt>Integrity</dt>
        <dd>
          <code className="integrity">{preview.integrity}</code>
        </dd>
        <dt>Trust</dt>
        <dd>
          <TrustStatus trust={preview.trust} explained />
        </dd>
      </dl>
      {uploaded !== undefined && <p className="notice-line">Install sends these same bytes, pinned to the integrity above: once installed, the package is listed as pinned.</p>}
    </section>
  );
}

function replacing(installed: ChannelPackage, preview: ChannelPackagePreview): string {
  if (installed.version === preview.version) return `${installed.version} is installed already: installing replaces it with this tarball.`;
  return `Upgrade from ${installed.version} to ${preview.version}.`;
}

function dependencies(declared: Record<string, string>, bundled: string[]) {
  const names = Object.keys(declared);
  if (names.length === 0) return <span className="empty">none</span>;
  return (
    <ul className="plain">
      {names.map((name) => (
        <li key={name}>
          <code>{name}</code> {declared[name]} {bundled.includes(name) && <small>(bundled)</small>}
        </li>
      ))}
    </ul>
  );
}
