import { useEffect, useState } from 'react';
import { buildFlowGraph, type FlowGraph } from './flow-graph.ts';

/** Typing pauses shorter than this redraw once, not on every key. */
export const FLOW_DEBOUNCE_MS = 150;

/**
 * The flow graph of `yaml`, rebuilt 150 ms after the last change. While the text does not parse,
 * the last good graph stays, with the error.
 */
export function useFlowGraph(yaml: string): FlowGraph {
  const [graph, setGraph] = useState(() => buildFlowGraph(yaml));
  useEffect(() => {
    const timer = setTimeout(() => setGraph((previous) => buildFlowGraph(yaml, previous)), FLOW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [yaml]);
  return graph;
}
