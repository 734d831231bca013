import { lazy, memo, Suspense, useCallback, useDeferredValue, useLayoutEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/api-client.ts';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import type { TestRun, Workflow, WorkflowProblem } from '../../api/api-types.ts';
import { useSession } from '../../auth/session-context.tsx';
import { FieldError } from '../../components/field-error.tsx';
import { useCanvasLink } from './canvas/use-canvas-link.ts';
import { DeleteWorkflowButton } from './delete-workflow-button.tsx';
import { JumpButton } from './jump-button.tsx';
import { useFlowFollowsSelection } from './use-flow-follows-selection.ts';
import './editor/workflow-editor.css';
import { NEW_WORKFLOW_YAML } from './new-workflow-yaml.ts';
import { TestChat } from './test-chat/test-chat.tsx';
import { useSaveShortcut, useUnsavedChanges } from './use-unsaved-changes.ts';
import { useWorkflowDraft } from './use-workflow-draft.ts';
import { useWorkflowValidation } from './use-workflow-validation.ts';
import { VersionsList } from './versions-list.tsx';
import { YamlEditor } from './yaml-editor.tsx';

// The flow view parses YAML (the `yaml` package): loaded with the workflow pages only, like the editor.
// Memoised: a keystroke re-renders the editor page, and the flow (hundreds of SVG nodes) must
// only redraw when its own props change; it takes the text deferred (below).
const FlowView = lazy(() => import('./flow/flow-view.tsx').then((module) => ({ default: memo(module.FlowView) })));

/**
 * Edits a workflow's name and YAML beside the drawn flow; each save is a new version. Problems
 * show in the editor's gutter; the step that failed the last test run is marked in the flow
 * until the YAML changes. Ctrl-S (Cmd-S) saves like the Save button; leaving with unsaved edits
 * asks first; unsaved edits are autosaved as the author's draft (on the host once the workflow
 * is saved), offered back on the next visit, in any browser.
 */
export function WorkflowEditor({ workflow, onSaved }: { workflow?: Workflow; onSaved?: () => void }) {
  const navigate = useNavigate();
  const { can } = useSession();
  const [name, setName] = useState(workflow?.name ?? '');
  const [yaml, setYaml] = useState(workflow?.yaml ?? NEW_WORKFLOW_YAML);
  // What the last save (or the load) holds: an edit away from it is unsaved.
  const [savedAs, setSavedAs] = useState(() => ({ name, yaml }));
  const [lastRun, setLastRun] = useState<{ yaml: string; run: TestRun }>();
  const [saveProblems, setSaveProblems] = useState<{ yaml: string; problems: WorkflowProblem[] }>();
  const [errors, setErrors] = useState<{ name?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string>();
  const allowed = can(workflow ? 'workflow:update' : 'workflow:create');
  const liveProblems = useWorkflowValidation(yaml, can('workflow:read'));
  // The flow and the text linked both ways: a clicked step selects its YAML, the cursor highlights its step.
  const link = useCanvasLink(yaml);
  const flowColumn = useRef<HTMLDivElement>(null);
  // The flow redraws at low priority, after the keystroke is drawn: typing never waits for it.
  const flowYaml = useDeferredValue(yaml);
  // Canvas edits start from the text as typed, not from the deferred copy the flow is drawn from.
  const latestYaml = useRef(yaml);
  useLayoutEffect(() => {
    latestYaml.current = yaml;
  }, [yaml]);
  const editFromCanvas = useCallback((change: (text: string) => string) => setYaml(change(latestYaml.current)), []);
  useFlowFollowsSelection(flowColumn, link.selected);
  const problems = liveProblems ?? (saveProblems?.yaml === yaml ? saveProblems.problems : []);
  // The mark belongs to the YAML that was run: an edit clears it.
  const shownRun = lastRun?.yaml === yaml ? lastRun.run : undefined;
  const dirty = allowed && (name !== savedAs.name || yaml !== savedAs.yaml);
  const release = useUnsavedChanges(dirty);
  const [loaded] = useState(savedAs);
  const draft = useWorkflowDraft(workflow?.id ?? 'new', loaded, { name, yaml }, dirty, allowed);
  const leaveSaved = () => {
    release();
    draft.clear();
  };

  const save = async () => {
    if (!allowed || saving) return;
    setSaving(true);
    setErrors({});
    setNotice(undefined);
    try {
      const saved = workflow ? await api.put<Workflow>(`/api/workflows/${workflow.id}`, { name, yaml }) : await api.post<Workflow>('/api/workflows', { name, yaml });
      // Saved as the new current version: show it (an edit of an older version leaves ?version).
      setSavedAs({ name, yaml });
      leaveSaved();
      navigate(`/workflows/${saved.id}`, { replace: true });
      onSaved?.();
    } catch (failure) {
      const details = isApiError(failure) ? (failure.details as { problems?: WorkflowProblem[] } | undefined) : undefined;
      if (details?.problems) {
        setSaveProblems({ yaml, problems: details.problems });
        setNotice(`Not saved: ${details.problems.length} problem${details.problems.length === 1 ? '' : 's'}.`);
      } else if (isApiError(failure) && (failure.field === 'name' || failure.status === 409)) setErrors({ name: errorMessage(failure) });
      else setErrors({ form: errorMessage(failure) });
      setSaving(false);
    }
  };
  useSaveShortcut(() => void save());

  return (
    <section className="workflow-page">
      {/* Sticky: Save and the unsaved status stay in view however long the YAML or the flow. */}
      <header className="workflow-toolbar">
        <h1>{workflow ? `${workflow.name} (v${workflow.version})` : 'New workflow'}</h1>
        <p className="actions">
          <button type="button" className="primary" disabled={!allowed || saving} onClick={save}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {dirty && (
            <span className="unsaved-changes" role="status">
              Unsaved changes
            </span>
          )}
          <Link to="/workflows">Back to workflows</Link>
          {workflow && <JumpButton to="workflow-extras">Versions</JumpButton>}
          {workflow && <DeleteWorkflowButton workflow={workflow} onDeleted={leaveSaved} />}
        </p>
        {notice && <p className="error" role="alert">{notice}</p>}
        <FieldError message={errors.form} />
      </header>
      {workflow && workflow.version !== workflow.currentVersion && (
        <p className="notice">
          Viewing version {workflow.version}; saving makes it version {workflow.currentVersion + 1}. <Link to={`/workflows/${workflow.id}`}>Current version</Link>
        </p>
      )}
      {draft.offered && allowed && (
        <p className="notice" role="region" aria-label="Unsaved draft">
          This workflow has an unsaved draft from {new Date(draft.offered.savedAt).toLocaleString()}.{' '}
          <button
            type="button"
            onClick={() => {
              setName(draft.offered!.name);
              setYaml(draft.offered!.yaml);
              draft.restored();
            }}
          >
            Restore draft
          </button>{' '}
          <button type="button" onClick={draft.discard}>
            Discard draft
          </button>
        </p>
      )}
      <div className="form workflow-form">
        <label>
          Name
          <input name="name" value={name} disabled={!allowed} onChange={(e) => setName(e.target.value)} />
        </label>
        <FieldError message={errors.name} />
        <div className="workflow-workbench">
          <YamlEditor value={yaml} onChange={setYaml} problems={problems} readOnly={!allowed} onCursor={link.onCursor} reveal={link.reveal} />
          {/* A viewport-tall column scrolling on its own: a long flow never pushes the page down. */}
          <div className="workflow-flow-column" ref={flowColumn}>
            <Suspense fallback={<p className="flow-loading">Drawing the flow…</p>}>
              <FlowView yaml={flowYaml} run={shownRun} selected={link.selected} onSelect={link.onSelect} onEdit={allowed ? editFromCanvas : undefined} />
            </Suspense>
          </div>
        </div>
      </div>
      {workflow && (
        <div className="workflow-extras" id="workflow-extras">
          <VersionsList workflow={workflow} />
          <TestChat workflow={workflow} yaml={yaml} onFinished={(run) => setLastRun({ yaml, run })} />
        </div>
      )}
    </section>
  );
}
