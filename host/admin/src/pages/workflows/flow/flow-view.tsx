import { describeFlow } from './describe-flow.ts';
import { FLOW_SIZES, layoutFlow } from './flow-layout.ts';
import { FlowSideBranches } from './flow-side-branches.tsx';
import { FlowStepNode } from './flow-step-node.tsx';
import { useFlowGraph } from './use-flow-graph.ts';
import './flow-view.css';

// A narrow column shrinks the drawing down to this scale, then scrolls it sideways: text stays
// readable (the 11px labels never under 8.8px). The editor's column at a 1280 px window needs 0.94.
const MIN_SCALE = 0.8;

/**
 * The workflow's flow drawn beside its YAML, read-only, redrawn as the author types: each step
 * with the task's action and the memory it touches, each conditional input as a diamond with
 * `then`/`else` edges, an agent's tools as edges it may take, and the step at `failingPosition`
 * (its index in `flow`, from the last test run) marked "failed".
 *
 * Plain SVG rather than a graph library such as @xyflow/react: the flow is a handful of steps in
 * one column with side branches, which needs no layout engine, no pan/zoom or editing, and so
 * costs nothing in the bundle.
 *
 * @example
 * <FlowView yaml={yaml} failingPosition={1} />
 */
export function FlowView(props: { yaml: string; failingPosition?: number }) {
  const graph = useFlowGraph(props.yaml);
  const layout = layoutFlow(graph);
  const centerX = FLOW_SIZES.stepWidth / 2;
  return (
    <figure className="flow-view" data-testid="flow-view">
      <svg role="img" aria-label={describeFlow(graph, props.failingPosition)} viewBox={`0 0 ${layout.width} ${layout.height}`} width={layout.width} height={layout.height} style={{ minWidth: layout.width * MIN_SCALE }}>
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
          return (
            <g key={placed.step.position} className="flow-row">
              <line className="flow-edge" x1={centerX} y1={fromY} x2={centerX} y2={placed.y - 1} markerEnd="url(#flow-arrow)" />
              <FlowStepNode placed={placed} failed={placed.step.position === props.failingPosition} />
              <FlowSideBranches placed={placed} />
            </g>
          );
        })}
      </svg>
      {graph.error && (
        <figcaption className="flow-error" role="status">
          {graph.steps.length > 0 ? 'Showing the flow as last read: ' : ''}
          {graph.error}
        </figcaption>
      )}
    </figure>
  );
}
