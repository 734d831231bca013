import { useState } from 'react';
import type { ChannelPackageInstall } from '../../../api/api-types.ts';
import { installPackage, previewPackage, type PackageRequest, type Previewed } from './package-request.ts';

/** Where an install stands; each step remembers the request it answers. */
export type InstallState =
  | { step: 'idle' }
  | { step: 'previewing'; request: PackageRequest }
  | { step: 'previewed'; request: PackageRequest; previewed: Previewed }
  | { step: 'installing'; request: PackageRequest; previewed: Previewed }
  | { step: 'installed'; request: PackageRequest; outcome: ChannelPackageInstall }
  | { step: 'refused'; during: 'preview' | 'install'; request: PackageRequest; previewed?: Previewed; error: unknown };

/**
 * Preview, then install exactly what was previewed (package-request.ts says how).
 * `onSettled` runs after each install attempt (the audit records refusals too).
 */
export function usePackageInstall(onSettled: () => void) {
  const [state, setState] = useState<InstallState>({ step: 'idle' });
  const preview = async (request: PackageRequest) => {
    setState({ step: 'previewing', request });
    try {
      setState({ step: 'previewed', request, previewed: await previewPackage(request) });
    } catch (error) {
      setState({ step: 'refused', during: 'preview', request, error });
    }
  };
  const install = async (request: PackageRequest, previewed: Previewed) => {
    setState({ step: 'installing', request, previewed });
    try {
      setState({ step: 'installed', request, outcome: await installPackage(previewed) });
    } catch (error) {
      setState({ step: 'refused', during: 'install', request, previewed, error });
    }
    onSettled();
  };
  return { state, preview, install };
}
