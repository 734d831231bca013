import type { InstallState } from './use-package-install.ts';

/** Install, or Upgrade when the name is installed: enabled once the fields' preview succeeded. */
export function InstallButton({ state, upgrade, onInstall }: { state: InstallState; upgrade: boolean; onInstall: () => void }) {
  const ready = state.step === 'previewed' || (state.step === 'refused' && state.previewed !== undefined);
  return (
    <button type="button" className="primary" disabled={!ready} onClick={onInstall} title={ready ? undefined : 'Preview this package first'}>
      {state.step === 'installing' ? (upgrade ? 'Upgrading…' : 'Installing…') : upgrade ? 'Upgrade' : 'Install'}
    </button>
  );
}
