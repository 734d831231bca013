import type { KeyboardEvent } from 'react';
import { charsFitting, FLOW_SIZES, type PlacedStep } from './flow-layout.ts';
import { STEP_RUN_LABELS, type StepRunState } from './run-marks.ts';
import { truncateLabel } from './truncate-label.ts';

// Text runs from 10 units into the box to 10 before its end; a mark ("failed") takes its width of that.
const TEXT_WIDTH = FLOW_SIZES.stepWidth - 20;
const TASK_CHAR_WIDTH = 6.9;
const MARK_CHAR_WIDTH = 6.4;
const ACTION_CHARS = charsFitting(TEXT_WIDTH, 7.3);
const BADGE_CHAR_WIDTH = 6.2;
const BADGE_CHARS = charsFitting(TEXT_WIDTH - 12, BADGE_CHAR_WIDTH);

export interface FlowStepNodeProps {
  placed: PlacedStep;
  failed: boolean;
  /** What the drawn run did here, if a run is drawn. */
  runState?: StepRunState;
  selected?: boolean;
  onSelect?: (position: number) => void;
}

/**
 * One step's box: its number and task, the action it runs, its memory badges, and what the
 * drawn run did there ("failed", "succeeded", "not reached"). Clicking it (or Enter on it)
 * selects it.
 */
export function FlowStepNode({ placed, failed, runState, selected = false, onSelect }: FlowStepNodeProps) {
  const { step, y, height } = placed;
  const mark = failed ? 'failed' : runState && STEP_RUN_LABELS[runState];
  const className = ['flow-step', failed && 'failed', runState && `run-${runState}`, selected && 'selected', !step.action && 'unknown'].filter(Boolean).join(' ');
  const select = onSelect && (() => onSelect(step.position));
  const onKeyDown = (event: KeyboardEvent) => {
    if (select && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      select();
    }
  };
  const taskChars = charsFitting(TEXT_WIDTH - (mark ? mark.length * MARK_CHAR_WIDTH + 8 : 0), TASK_CHAR_WIDTH);
  return (
    <g className={className} data-step={step.task} data-position={step.position} onClick={select} onKeyDown={onKeyDown} tabIndex={select ? 0 : undefined} aria-current={selected ? 'true' : undefined}>
      <title>{step.description ?? step.task}</title>
      <rect x={0} y={y} width={FLOW_SIZES.stepWidth} height={height} rx={6} />
      <text className="flow-step-task" x={10} y={y + 20}>
        {truncateLabel(`${step.position + 1}. ${step.task || '(no task)'}`, taskChars)}
      </text>
      {mark && (
        <text className={failed ? 'flow-failed' : 'flow-run-mark'} x={FLOW_SIZES.stepWidth - 10} y={y + 20} textAnchor="end">
          {mark}
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
