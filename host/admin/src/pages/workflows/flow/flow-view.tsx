import { useDeferredValue, useState } from 'react';
import { CanvasToolbar } from '../canvas/canvas-toolbar.tsx';
import '../canvas/canvas.css';
import { StepPanel } from '../canvas/step-panel.tsx';
import { useCanvasEdit } from '../canvas/use-canvas-edit.ts';
import { FlowDrawing } from './flow-drawing.tsx';
import type { DrawnRun } from './run-marks.ts';
import { useFlowGraph } from './use-flow-graph.ts';
import './flow-view.css';

export interface FlowViewProps {
  yaml: string;
  /** A run to draw: each step's outcome, each condition's branch, a step's inputs and output on click. */
  run?: DrawnRun;
  /** The selected step, when the caller links it to the text (with `onSelect`); else the view keeps its own. */
  selected?: number;
  onSelect?: (position: number | undefined) => void;
  /**
   * Makes the flow a canvas: the selected step's inputs as a form, "Add step", "Add branch". Each
   * edit is a change of the YAML text, which the caller applies to its latest text: the flow may
   * be drawn from a text a keystroke behind (it redraws at low priority), and an edit made from
   * that text would lose the keystroke. A change throws when the text cannot take it.
   */
  onEdit?: (change: (yaml: string) => string) => void;
}

/**
 * The workflow's flow drawn beside its YAML, redrawn as the author types (see FlowDrawing).
 * Clicking a step selects it: the caller selects its YAML, and the panel shows what the drawn
 * run did there and, when editable, its inputs as a form. Every canvas edit is an edit of the
 * YAML text (the source of truth) made through `onEdit`.
 *
 * Plain SVG rather than a graph library such as @xyflow/react: the flow is a handful of steps in
 * one column with side branches, which needs no layout engine nor pan/zoom, and so costs nothing
 * in the bundle.
 *
 * @example
 * <FlowView yaml={yaml} run={lastRun} selected={selected} onSelect={select} onEdit={(change) => setYaml(change(latestYaml))} />
 */
export function FlowView({ yaml, run, selected: linked, onSelect, onEdit }: FlowViewProps) {
  const graph = useFlowGraph(yaml);
  const [own, setOwn] = useState<number>();
  const selected = onSelect ? linked : own;
  const select = onSelect ?? setOwn;
  const { apply, problem } = useCanvasEdit(onEdit);
  // The panel reads the step's inputs from the text: a long workflow's typing is not held up by it.
  const panelYaml = useDeferredValue(yaml);
  const step = selected === undefined ? undefined : graph.steps[selected];
  return (
    <div className="flow-view" data-testid="flow-view">
      {onEdit && <CanvasToolbar yaml={yaml} steps={graph.steps} selected={selected} apply={apply} onSelect={select} problem={problem} />}
      {step && (onEdit || run) && <StepPanel key={step.position} yaml={panelYaml} step={step} run={run} onEdit={onEdit && apply} onClose={() => select(undefined)} />}
      <figure className="flow-figure">
        <FlowDrawing graph={graph} run={run} selected={selected} onSelect={select} />
        {graph.error && (
          <figcaption className="flow-error" role="status">
            {graph.steps.length > 0 ? 'Showing the flow as last read: ' : ''}
            {graph.error}
          </figcaption>
        )}
      </figure>
    </div>
  );
}
