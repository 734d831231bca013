import { useState } from 'react';
import { api } from '../../../api/api-client.ts';
import type { ChannelPackageInstall, ChannelPackagePreview } from '../../../api/api-types.ts';

/** What the operator asked for: a registry spec and, optionally, the integrity they pin. */
export interface PackageRequest {
  spec: string;
  integrity: string;
}

/** Where an install stands; each step remembers the request it answers. */
export type InstallState =
  | { step: 'idle' }
  | { step: 'previewing'; request: PackageRequest }
  | { step: 'previewed'; request: PackageRequest; preview: ChannelPackagePreview }
  | { step: 'installing'; request: PackageRequest; preview: ChannelPackagePreview }
  | { step: 'installed'; request: PackageRequest; outcome: ChannelPackageInstall }
  | { step: 'refused'; during: 'preview' | 'install'; request: PackageRequest; preview?: ChannelPackagePreview; error: unknown };

/**
 * Preview, then install exactly what was previewed: `name@version` pinned to the integrity the
 * preview showed, so a version published in between, or another tarball, cannot slip in.
 * `onSettled` runs after each install attempt (the audit records refusals too).
 */
export function usePackageInstall(onSettled: () => void) {
  const [state, setState] = useState<InstallState>({ step: 'idle' });
  const preview = async (request: PackageRequest) => {
    setState({ step: 'previewing', request });
    try {
      const body = { spec: request.spec, ...(request.integrity ? { integrity: request.integrity } : {}) };
      setState({ step: 'previewed', request, preview: await api.post<ChannelPackagePreview>('/api/channel/packages/preview', body) });
    } catch (error) {
      setState({ step: 'refused', during: 'preview', request, error });
    }
  };
  const install = async (request: PackageRequest, previewed: ChannelPackagePreview) => {
    setState({ step: 'installing', request, preview: previewed });
    try {
      const body = { spec: `${previewed.name}@${previewed.version}`, integrity: previewed.integrity };
      setState({ step: 'installed', request, outcome: await api.post<ChannelPackageInstall>('/api/channel/packages', body) });
    } catch (error) {
      setState({ step: 'refused', during: 'install', request, preview: previewed, error });
    }
    onSettled();
  };
  return { state, preview, install };
}

/** Whether two requests ask for the same thing. */
export function sameRequest(a: PackageRequest, b: PackageRequest): boolean {
  return a.spec === b.spec && a.integrity === b.integrity;
}
