import { useState, type FormEvent } from 'react';
import type { ChannelPackage, ChannelPackageList } from '../../../api/api-types.ts';
import { InstallButton } from './install-button.tsx';
import { InstallOutcome } from './install-outcome.tsx';
import { InstallUnavailable } from './install-unavailable.tsx';
import { InstallProgress } from './install-progress.tsx';
import { PackagePreview } from './package-preview.tsx';
import { sameRequest, type PackageRequest } from './package-request.ts';
import { PackageSourceChoice, type PackageSource } from './package-source-choice.tsx';
import { RefusalMessage } from './refusal-message.tsx';
import { TarballField } from './tarball-field.tsx';
import { UploadsOff } from './uploads-off.tsx';
import { usePackageInstall, type InstallState } from './use-package-install.ts';

/**
 * A package, `name@version` from the registry or a tarball file, and an optional pinned
 * integrity: Preview has the host fetch and check it and shows its manifest; Install (or Upgrade)
 * is enabled only while the fields still ask for what was previewed.
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
  const [source, setSource] = useState<PackageSource>('registry');
  const [spec, setSpec] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [integrity, setIntegrity] = useState('');
  const { state, preview, install } = usePackageInstall(onSettled);
  const request = requestOf(source, spec, file, integrity.trim());
  // What the page shows answers the fields as they are: editing them sets it aside.
  const shown: InstallState = state.step !== 'idle' && request && sameRequest(state.request, request) ? state : { step: 'idle' };
  const previewed = 'previewed' in shown ? shown.previewed : undefined;
  const current = installed.find((entry) => entry.name === previewed?.preview.name);
  const busy = state.step === 'previewing' || state.step === 'installing';
  const uploadsOff = source === 'upload' && policy !== undefined && policy !== 'any';
  const chooseSource = (next: PackageSource) => {
    setSource(next);
    setFile(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request) void preview(request);
  };
  return (
    <section aria-labelledby="install-heading" aria-busy={busy}>
      <h2 id="install-heading">Install or upgrade</h2>
      <InstallUnavailable policy={policy} canInstall={canInstall} declarative={declarative} />
      <form className="form" onSubmit={submit}>
        <fieldset disabled={!canInstall || policy === undefined || policy === 'off' || busy}>
          <PackageSourceChoice value={source} onChange={chooseSource} />
          {uploadsOff && <UploadsOff />}
          <fieldset disabled={uploadsOff}>
            {source === 'registry' ? (
              <label>
                Package <small>name@version, as on the registry</small>
                <input name="spec" value={spec} placeholder="bot-channel-x@1.2.0" required onChange={(event) => setSpec(event.target.value)} />
              </label>
            ) : (
              <TarballField onChange={setFile} />
            )}
            <label>
              Pinned integrity <small>optional: the sha512 you reviewed, as package-lock.json writes it</small>
              <input name="integrity" value={integrity} placeholder="sha512-…" onChange={(event) => setIntegrity(event.target.value)} />
            </label>
            <p className="actions">
              <button type="submit">{state.step === 'previewing' ? 'Previewing…' : 'Preview'}</button>
              <InstallButton state={shown} upgrade={current !== undefined} onInstall={() => request && previewed && void install(request, previewed)} />
            </p>
          </fieldset>
        </fieldset>
      </form>
      <InstallProgress state={shown} />
      {shown.step === 'refused' && <RefusalMessage title={shown.during === 'preview' ? 'Preview refused' : 'Install refused: nothing was installed'} error={shown.error} />}
      {shown.step === 'installed' && <InstallOutcome outcome={shown.outcome} />}
      {previewed && shown.step !== 'installed' && <PackagePreview preview={previewed.preview} installed={current} uploaded={request && uploadedName(request)} />}
    </section>
  );
}

/** The request the fields make, once they name a package (a spec typed, a file chosen). */
function requestOf(source: PackageSource, spec: string, file: File | undefined, integrity: string): PackageRequest | undefined {
  if (source === 'registry') return spec.trim() ? { source, spec: spec.trim(), integrity } : undefined;
  return file ? { source, file, integrity } : undefined;
}

function uploadedName(request: PackageRequest): string | undefined {
  return request.source === 'upload' ? request.file.name : undefined;
}
