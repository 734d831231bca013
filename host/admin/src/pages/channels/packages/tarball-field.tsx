/** Chooses the `.tgz` to upload (`npm pack` writes one); nothing is sent until Preview. */
export function TarballField({ onChange }: { onChange: (file: File | undefined) => void }) {
  return (
    <label>
      Tarball <small>a .tgz as npm pack writes it, at most 20 MiB</small>
      <input type="file" name="tarball" accept=".tgz,application/gzip" required onChange={(event) => onChange(event.target.files?.[0])} />
    </label>
  );
}
