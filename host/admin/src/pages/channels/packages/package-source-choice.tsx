/** Where the package comes from: a registry, by name@version, or a tarball file the operator has. */
export type PackageSource = 'registry' | 'upload';

const LABELS: Record<PackageSource, string> = {
  registry: 'From the registry',
  upload: 'From a tarball file',
};

/** Two radio buttons choosing the package's source; the fields below follow the choice. */
export function PackageSourceChoice({ value, onChange }: { value: PackageSource; onChange: (source: PackageSource) => void }) {
  return (
    <fieldset className="source-choice">
      <legend>Install from</legend>
      {(Object.keys(LABELS) as PackageSource[]).map((source) => (
        <label key={source} className="check">
          <input type="radio" name="source" value={source} checked={value === source} onChange={() => onChange(source)} />
          {LABELS[source]}
        </label>
      ))}
    </fieldset>
  );
}
