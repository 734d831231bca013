import { describeFlow } from './describe-flow.ts';
import type { FlowGraph } from './flow-graph.ts';
import { FLOW_SIZES, layoutFlow } from './flow-layout.ts';
import { FlowSideBranches } from './flow-side-branches.tsx';
import { FlowStepNode } from './flow-step-node.tsx';
import { stepRunState, type DrawnRun } from './run-marks.ts';

// A narrow column shrinks the drawing down to this scale, then scrolls it sideways: text stays
// readable (the 11px labels never under 8.8px). The editor's column at a 1280 px window needs 0.94.
const MIN_SCALE = 0.8;

export interface FlowDrawingProps {
  graph: FlowGraph;
  run?: DrawnRun;
  selected?: number;
  onSelect?: (position: number) => void;
}

/**
 * The flow as SVG: the steps in one column from "message in", each conditional input a diamond
 * beside its step, an agent's tools as edges it may take; with a run, each step's outcome and
 * each condition's branch taken.
 */
export function FlowDrawing({ graph, run, selected, onSelect }: FlowDrawingProps) {
  const layout = layoutFlow(graph);
  const centerX = FLOW_SIZES.stepWidth / 2;
  const stateAt = (position: number) => (run ? stepRunState(run, position) : undefined);
  return (
    <svg role="img" aria-label={describeFlow(graph, undefined, run)} viewBox={`0 0 ${layout.width} ${layout.height}`} width={layout.width} height={layout.height} style={{ minWidth: layout.width * MIN_SCALE }}>
      <defs>
        <marker id="flow-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" />
        </marker>
      </defs>
      <g className="flow-start">
        <rect x={centerX - 44} y={4} width={88} height={22} rx={11} />
        <text x={centerX} y={19} textAnchor="middle">message in</text>
      </g>
      {layout.steps.map((placed, index) => {
        const above = layout.steps[index - 1];
        const fromY = above ? above.y + above.height : 26;
        const ran = stateAt(placed.step.position);
        return (
          <g key={placed.step.position} className="flow-row">
            <line className="flow-edge" x1={centerX} y1={fromY} x2={centerX} y2={placed.y - 1} markerEnd="url(#flow-arrow)" />
            <FlowStepNode
              placed={placed}
              failed={ran?.state === 'failed'}
              runState={ran?.state}
              selected={placed.step.position === selected}
              onSelect={onSelect}
            />
            <FlowSideBranches placed={placed} ran={ran?.step} />
          </g>
        );
      })}
    </svg>
  );
}
