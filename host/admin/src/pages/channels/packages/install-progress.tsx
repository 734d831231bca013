import type { InstallState } from './use-package-install.ts';

/** The busy line while a preview or an install runs. */
export function InstallProgress({ state }: { state: InstallState }) {
  if (state.step === 'previewing') {
    return (
      <p className="loading" role="status" aria-busy="true">
        Fetching and checking {state.request.spec}…
      </p>
    );
  }
  if (state.step === 'installing') {
    return (
      <p className="loading" role="status" aria-busy="true">
        Installing {state.preview.name}@{state.preview.version}: unpacking, checking and starting its channel…
      </p>
    );
  }
  return null;
}
