import type { Page } from 'playwright-core';

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread-clock (CPU) duration, µs. */
  tdur?: number;
  args?: { name?: string };
}

/**
 * Runs `work` while Chromium traces the page, and returns the CPU time its main thread spent in
 * tasks (the trace's thread-clock durations, ms). Unlike latency, this does not grow when other
 * processes share the machine's cores.
 */
export async function mainThreadCpuMs(page: Page, work: () => Promise<void>): Promise<number> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
  await work();
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const mainThreads = new Set(trace.traceEvents.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`));
  // Top-level tasks only (a task may run nested inside another); the busiest renderer main
  // thread is the page's (others are idle frames).
  const tasks = trace.traceEvents.filter((event) => event.ph === 'X' && /(^|::)RunTask$/.test(event.name) && mainThreads.has(`${event.pid}:${event.tid}`)).sort((a, b) => a.ts - b.ts);
  const cpuByThread = new Map<string, number>();
  const taskEndByThread = new Map<string, number>();
  for (const task of tasks) {
    const thread = `${task.pid}:${task.tid}`;
    if (task.ts < (taskEndByThread.get(thread) ?? 0)) continue;
    taskEndByThread.set(thread, task.ts + (task.dur ?? 0));
    cpuByThread.set(thread, (cpuByThread.get(thread) ?? 0) + (task.tdur ?? 0));
  }
  return Math.max(0, ...cpuByThread.values()) / 1000;
}
