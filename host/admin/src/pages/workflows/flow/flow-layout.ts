import type { FlowCondition, FlowGraph, FlowStep, FlowTool } from './flow-graph.ts';

/**
 * Sizes of the drawing, in SVG units (the SVG scales to its box). A drawing with side branches
 * is 428 wide: the editor's column at a 1280 px window (about 400 px) shows it at 0.94, and
 * narrower columns down to the view's smallest scale (flow-view.tsx) before it scrolls.
 */
export const FLOW_SIZES = {
  stepWidth: 176,
  stepHeight: 50,
  badgeRow: 24,
  gap: 34,
  sideX: 196,
  branchX: 262,
  branchWidth: 156,
  conditionHeight: 92,
  toolHeight: 34,
  top: 44,
  /** Width of a character of the 11px monospace labels (branch values, condition tests). */
  monoCharWidth: 6.7,
} as const;

/** How many characters of a label fit in `width` at `charWidth` per character. */
export function charsFitting(width: number, charWidth: number = FLOW_SIZES.monoCharWidth): number {
  return Math.floor(width / charWidth);
}

/** A condition beside its step: a diamond at (x, y) with `then`/`else` edges to the values. */
export interface PlacedCondition extends FlowCondition {
  x: number;
  y: number;
}

export interface PlacedTool extends FlowTool {
  y: number;
}

/** A step placed in the column: its box, and what sits beside it. */
export interface PlacedStep {
  step: FlowStep;
  y: number;
  height: number;
  conditions: PlacedCondition[];
  tools: PlacedTool[];
}

export interface FlowLayout {
  steps: PlacedStep[];
  width: number;
  height: number;
}

/**
 * Places the steps top to bottom in one column, each step's conditions and tools to its right.
 * A column with side branches needs no layout engine: each row is as tall as its tallest part.
 */
export function layoutFlow(graph: FlowGraph): FlowLayout {
  const steps: PlacedStep[] = [];
  let y: number = FLOW_SIZES.top;
  for (const step of graph.steps) {
    const placed = placeStep(step, y);
    steps.push(placed);
    y += rowHeight(placed) + FLOW_SIZES.gap;
  }
  const wide = graph.steps.some((step) => step.conditions.length + step.tools.length > 0);
  return { steps, width: wide ? FLOW_SIZES.branchX + FLOW_SIZES.branchWidth + 10 : FLOW_SIZES.stepWidth + 20, height: y + 10 };
}

function placeStep(step: FlowStep, y: number): PlacedStep {
  // One row per memory badge: side by side, two badges overflowed the box.
  const height = FLOW_SIZES.stepHeight + step.memory.length * FLOW_SIZES.badgeRow;
  let sideY = y;
  const conditions = step.conditions.map((condition) => {
    const placed = { ...condition, x: FLOW_SIZES.sideX + 16, y: sideY + 56 };
    sideY += FLOW_SIZES.conditionHeight;
    return placed;
  });
  const tools = step.tools.map((tool) => {
    const placed = { ...tool, y: sideY };
    sideY += FLOW_SIZES.toolHeight;
    return placed;
  });
  return { step, y, height, conditions, tools };
}

function rowHeight(placed: PlacedStep): number {
  const side = placed.conditions.length * FLOW_SIZES.conditionHeight + placed.tools.length * FLOW_SIZES.toolHeight;
  return Math.max(placed.height, side);
}
