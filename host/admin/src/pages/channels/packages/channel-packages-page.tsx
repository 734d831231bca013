import { Link } from 'react-router';
import type { ChannelPackageAuditEntry, ChannelPackageList } from '../../../api/api-types.ts';
import { useApiData } from '../../../api/use-api-data.ts';
import { useSession } from '../../../auth/session-context.tsx';
import { InstallForm } from './install-form.tsx';
import { InstalledPackages } from './installed-packages.tsx';
import { PackageAudit } from './package-audit.tsx';
import { PackageFailures } from './package-failures.tsx';

const POLICIES: Record<ChannelPackageList['policy'], string> = {
  off: 'nothing is installed',
  registry: 'packages from the configured registry',
  any: 'packages from the configured registry, and uploaded tarballs',
};

/** Channels > Install: the packages the host installed, the install form with its preview, and the audit. */
export function ChannelPackagesPage() {
  const { can } = useSession();
  const packages = useApiData<ChannelPackageList>('/api/channel/packages');
  const audit = useApiData<{ items: ChannelPackageAuditEntry[] }>('/api/channel/packages/audit');
  const reload = () => {
    packages.reload();
    audit.reload();
  };
  const policy = packages.data?.policy;
  // A channels file owns the set: the page only reads it, whatever the role may do.
  const declarative = packages.data?.declarative === true;
  const canChange = can('channel:install') && !declarative;
  return (
    <section>
      <header className="page-header">
        <h1>Install channels</h1>
        <Link to="/channels">Registered channels</Link>
      </header>
      <p>
        The host fetches, checks and unpacks each package itself and never runs its install scripts; every instance picks up the change without a restart.
        {policy && (
          <>
            {' '}
            Policy (BOT_CHANNEL_INSTALL): <code data-policy={policy}>{policy}</code>, {POLICIES[policy]}.
          </>
        )}
      </p>
      <InstallForm policy={policy} declarative={declarative} installed={packages.data?.items ?? []} canInstall={canChange} onSettled={reload} />
      <h2>Installed packages</h2>
      <InstalledPackages state={packages} canChange={canChange} onChanged={reload} />
      <PackageFailures failures={packages.data?.failures ?? []} />
      <h2>Audit</h2>
      <PackageAudit state={audit} />
    </section>
  );
}
