import { useState, type FormEvent } from 'react';
import type { ChannelPackage, ChannelPackageList } from '../../../api/api-types.ts';
import { InstallButton } from './install-button.tsx';
import { InstallOutcome } from './install-outcome.tsx';
import { InstallUnavailable } from './install-unavailable.tsx';
import { InstallProgress } from './install-progress.tsx';
import { PackagePreview } from './package-preview.tsx';
import { RefusalMessage } from './refusal-message.tsx';
import { sameRequest, usePackageInstall, type InstallState } from './use-package-install.ts';

/**
 * `name@version` and an optional pinned integrity: Preview fetches and checks it and shows its
 * manifest; Install (or Upgrade) is enabled only while the fields still ask for what was previewed.
 */
export function InstallForm({
  policy,
  declarative,
  installed,
  canInstall,
  onSettled,
}: {
  policy: ChannelPackageList['policy'] | undefined;
  /** The set is declared in BOT_CHANNELS_FILE (`canInstall` is false then too). */
  declarative: boolean;
  installed: ChannelPackage[];
  canInstall: boolean;
  onSettled: () => void;
}) {
  const [spec, setSpec] = useState('');
  const [integrity, setIntegrity] = useState('');
  const { state, preview, install } = usePackageInstall(onSettled);
  const request = { spec: spec.trim(), integrity: integrity.trim() };
  // What the page shows answers the fields as they are: editing them sets it aside.
  const shown: InstallState = state.step !== 'idle' && sameRequest(state.request, request) ? state : { step: 'idle' };
  const previewed = 'preview' in shown ? shown.preview : undefined;
  const current = installed.find((entry) => entry.name === previewed?.name);
  const busy = state.step === 'previewing' || state.step === 'installing';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request.spec) void preview(request);
  };
  return (
    <section aria-labelledby="install-heading" aria-busy={busy}>
      <h2 id="install-heading">Install or upgrade</h2>
      <InstallUnavailable policy={policy} canInstall={canInstall} declarative={declarative} />
      <form className="form" onSubmit={submit}>
        <fieldset disabled={!canInstall || policy === undefined || policy === 'off' || busy}>
          <label>
            Package <small>name@version, as on the registry</small>
            <input name="spec" value={spec} placeholder="bot-channel-x@1.2.0" required onChange={(event) => setSpec(event.target.value)} />
          </label>
          <label>
            Pinned integrity <small>optional: the sha512 you reviewed, as package-lock.json writes it</small>
            <input name="integrity" value={integrity} placeholder="sha512-…" onChange={(event) => setIntegrity(event.target.value)} />
          </label>
          <p className="actions">
            <button type="submit">{state.step === 'previewing' ? 'Previewing…' : 'Preview'}</button>
            <InstallButton state={shown} upgrade={current !== undefined} onInstall={() => previewed && void install(request, previewed)} />
          </p>
        </fieldset>
      </form>
      <InstallProgress state={shown} />
      {shown.step === 'refused' && <RefusalMessage title={shown.during === 'preview' ? 'Preview refused' : 'Install refused: nothing was installed'} error={shown.error} />}
      {shown.step === 'installed' && <InstallOutcome outcome={shown.outcome} />}
      {previewed && shown.step !== 'installed' && <PackagePreview preview={previewed} installed={current} />}
    </section>
  );
}
