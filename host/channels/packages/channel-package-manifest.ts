/**
 * What the host shows of a channel package before and after it installs it, read from its
 * package.json without running any of its code.
 */
export interface ChannelPackageManifest {
  name: string;
  version: string;
  description: string | undefined;
  peerDependencies: Record<string, string>;
  dependencies: Record<string, string>;
  /** Dependencies shipped inside the tarball itself (`bundleDependencies`). */
  bundleDependencies: string[];
  /** The hosts the package declares it sends to (`bot.egress`). */
  egress: string[];
  engines: Record<string, string>;
  /** Whether npm would run code of it at install (`preinstall`, `install`, `postinstall`, `prepare`, or a `binding.gyp`): the host never does. */
  hasInstallScripts: boolean;
}
