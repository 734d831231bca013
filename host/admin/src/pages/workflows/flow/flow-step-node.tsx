import { charsFitting, FLOW_SIZES, type PlacedStep } from './flow-layout.ts';
import { truncateLabel } from './truncate-label.ts';

// Text runs from 10 units into the box to 10 before its end; "failed" takes 46 of that.
const TEXT_WIDTH = FLOW_SIZES.stepWidth - 20;
const TASK_CHARS = charsFitting(TEXT_WIDTH, 6.9);
const FAILED_TASK_CHARS = charsFitting(TEXT_WIDTH - 46, 6.9);
const ACTION_CHARS = charsFitting(TEXT_WIDTH, 7.3);
const BADGE_CHAR_WIDTH = 6.2;
const BADGE_CHARS = charsFitting(TEXT_WIDTH - 12, BADGE_CHAR_WIDTH);

/** One step's box: its number and task, the action it runs, its memory badges, "failed" if it did. */
export function FlowStepNode({ placed, failed }: { placed: PlacedStep; failed: boolean }) {
  const { step, y, height } = placed;
  const className = ['flow-step', failed && 'failed', !step.action && 'unknown'].filter(Boolean).join(' ');
  return (
    <g className={className} data-step={step.task} data-position={step.position}>
      <title>{step.description ?? step.task}</title>
      <rect x={0} y={y} width={FLOW_SIZES.stepWidth} height={height} rx={6} />
      <text className="flow-step-task" x={10} y={y + 20}>
        {truncateLabel(`${step.position + 1}. ${step.task || '(no task)'}`, failed ? FAILED_TASK_CHARS : TASK_CHARS)}
      </text>
      {failed && (
        <text className="flow-failed" x={FLOW_SIZES.stepWidth - 10} y={y + 20} textAnchor="end">
          failed
        </text>
      )}
      <text className="flow-step-action" x={10} y={y + 39}>
        {step.action ? truncateLabel(step.action, ACTION_CHARS) : 'no task of that name'}
      </text>
      {step.memory.length > 0 && <MemoryBadges placed={placed} />}
    </g>
  );
}

function MemoryBadges({ placed }: { placed: PlacedStep }) {
  return (
    <g className="flow-memory">
      {placed.step.memory.map((touch, row) => {
        const label = truncateLabel(`${touch.name} · ${touch.access.join(', ')}`, BADGE_CHARS);
        const width = Math.min(label.length * BADGE_CHAR_WIDTH + 12, TEXT_WIDTH);
        const top = placed.y + FLOW_SIZES.stepHeight - 4 + row * FLOW_SIZES.badgeRow;
        return (
          <g key={touch.name} data-memory={touch.name}>
            <title>{`memory ${touch.name}: ${touch.access.join(', ')}`}</title>
            <rect x={10} y={top} width={width} height={18} rx={9} />
            <text x={16} y={top + 13}>
              {label}
            </text>
          </g>
        );
      })}
    </g>
  );
}
