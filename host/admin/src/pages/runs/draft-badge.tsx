/** Marks a test run of an unsaved draft: its version is the one the draft was edited from, not what ran. */
export function DraftBadge() {
  return (
    <>
      {' '}
      <span className="draft-badge" title="A test run of an unsaved draft, edited from this version">
        draft
      </span>
    </>
  );
}
