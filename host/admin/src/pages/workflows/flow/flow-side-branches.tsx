import type { RunStep } from '../../../api/api-types.ts';
import { charsFitting, FLOW_SIZES, type PlacedCondition, type PlacedStep, type PlacedTool } from './flow-layout.ts';
import { branchTaken } from './run-marks.ts';
import { truncateLabel } from './truncate-label.ts';
import { wrapLabel } from './wrap-label.ts';

const DIAMOND = 14;
const TEST_LINE_HEIGHT = 14;
// A value's text starts 6 units into its box and keeps 6 clear at the end.
const VALUE_CHARS = charsFitting(FLOW_SIZES.branchWidth - 12);
// A condition's test runs from the diamond's left corner to the drawing's right edge, in up to two lines.
const TEST_CHARS = charsFitting(FLOW_SIZES.branchX + FLOW_SIZES.branchWidth - (FLOW_SIZES.sideX + 16 - DIAMOND));

type Took = ReturnType<typeof branchTaken>;

/**
 * What sits beside a step: a diamond per conditional input, an edge per tool an agent may call.
 * With the drawn run's step (`ran`), each condition marks the branch it took.
 */
export function FlowSideBranches({ placed, ran }: { placed: PlacedStep; ran?: RunStep }) {
  const fromY = placed.y + FLOW_SIZES.stepHeight / 2;
  return (
    <g className="flow-side">
      {placed.conditions.map((condition, index) => (
        <ConditionBranch key={`c${index}`} condition={condition} fromY={fromY} took={ran ? branchTaken(ran, condition) : undefined} drawnRun={ran !== undefined} />
      ))}
      {placed.tools.map((tool) => (
        <ToolBranch key={`t${tool.task}`} tool={tool} fromY={fromY} />
      ))}
    </g>
  );
}

/** `took` is the branch the drawn run took (`drawnRun` without it: the run did not evaluate this condition). */
function ConditionBranch({ condition, fromY, took, drawnRun }: { condition: PlacedCondition; fromY: number; took: Took; drawnRun: boolean }) {
  const { x, y } = condition;
  const diamond = `${x},${y - DIAMOND} ${x + DIAMOND},${y} ${x},${y + DIAMOND} ${x - DIAMOND},${y}`;
  const outcome = took ? `; the run took ${took === 'both' ? 'both branches' : `the ${took} branch`}` : drawnRun ? '; the run did not evaluate it' : '';
  return (
    <g className={['flow-condition', took && `took-${took}`, drawnRun && !took && 'not-evaluated'].filter(Boolean).join(' ')} data-input={condition.input} data-took={took}>
      <title>{`${condition.input}: if ${condition.test} then ${condition.then} else ${condition.else}${outcome}`}</title>
      <path className="flow-link" d={`M${FLOW_SIZES.stepWidth},${fromY} C${x - 30},${fromY} ${x - 30},${y} ${x - DIAMOND},${y}`} />
      <ConditionTest x={x - DIAMOND} bottom={y - 24} text={`${condition.input}: if ${condition.test}`} />
      <polygon points={diamond} />
      <text className="flow-diamond-mark" x={x} y={y + 4} textAnchor="middle">
        ?
      </text>
      <BranchEdge label="then" value={condition.then} fromX={x + DIAMOND} fromY={y} toY={y - 2} taken={took && (took === 'then' || took === 'both')} />
      <BranchEdge label="else" value={condition.else} fromX={x} fromY={y + DIAMOND} toY={y + 26} taken={took && (took === 'else' || took === 'both')} />
    </g>
  );
}

/** The condition's input and test above its diamond, on two lines ending at `bottom` when it needs them. */
function ConditionTest({ x, bottom, text }: { x: number; bottom: number; text: string }) {
  const lines = wrapLabel(text, TEST_CHARS, 2);
  return (
    <text className="flow-condition-test" x={x} y={bottom - TEST_LINE_HEIGHT * (lines.length - 1)}>
      {lines.map((line, index) => (
        <tspan key={index} x={x} dy={index === 0 ? 0 : TEST_LINE_HEIGHT}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/** `taken`: true when the drawn run took this branch, false when it took the other, undefined without one. */
function BranchEdge({ label, value, fromX, fromY, toY, taken }: { label: string; value: string; fromX: number; fromY: number; toY: number; taken: boolean | undefined }) {
  const boxX = FLOW_SIZES.branchX;
  const runClass = taken === undefined ? '' : taken ? ' taken' : ' not-taken';
  return (
    <g className={`flow-branch flow-branch-${label}${runClass}`}>
      <path className="flow-edge" d={`M${fromX},${fromY} L${fromX},${toY} L${boxX - 1},${toY}`} markerEnd="url(#flow-arrow)" />
      <text className="flow-edge-label" x={boxX - 6} y={toY - 4} textAnchor="end">
        {label}
      </text>
      <rect x={boxX} y={toY - 10} width={FLOW_SIZES.branchWidth} height={20} rx={4} />
      <text x={boxX + 6} y={toY + 4}>
        {truncateLabel(value || '(nothing)', VALUE_CHARS)}
      </text>
    </g>
  );
}

function ToolBranch({ tool, fromY }: { tool: PlacedTool; fromY: number }) {
  const boxX = FLOW_SIZES.branchX;
  const y = tool.y + 14;
  return (
    <g className="flow-tool" data-tool={tool.task}>
      <path className="flow-edge flow-link" d={`M${FLOW_SIZES.stepWidth},${fromY} C${boxX - 40},${fromY} ${boxX - 40},${y} ${boxX - 1},${y}`} markerEnd="url(#flow-arrow)" />
      <text className="flow-edge-label" x={boxX - 6} y={y - 5} textAnchor="end">
        may call
      </text>
      <rect x={boxX} y={y - 11} width={FLOW_SIZES.branchWidth} height={22} rx={6} />
      <text x={boxX + 6} y={y + 4}>
        {truncateLabel(`${tool.task}${tool.action ? ` (${tool.action})` : ' (no task of that name)'}`, VALUE_CHARS)}
      </text>
    </g>
  );
}
