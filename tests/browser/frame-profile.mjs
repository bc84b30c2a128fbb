// Where a redraw's time goes on the page's main thread, from a Chromium
// trace (browser.startTracing, the DevTools timeline categories): the self
// time of script, style, layout, pre-paint and paint events, so a layout
// forced from script counts as layout, not twice. What the benchmarks print
// as "the profile" of a change.
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'];

const KINDS = {
  script: ['FunctionCall', 'EventDispatch', 'FireAnimationFrame', 'TimerFire', 'RunMicrotasks', 'v8.compile', 'EvaluateScript', 'v8.evaluateModule'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ScheduleStyleRecalculation'],
  layout: ['Layout'],
  prePaint: ['PrePaint'],
  paint: ['Paint', 'PaintImage', 'Layerize', 'UpdateLayer', 'UpdateLayerTree', 'Commit', 'CompositeLayers'],
};
const KIND_OF = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((name) => [name, kind])));

// The renderer's main thread: of the threads named CrRendererMain, the one
// that ran the most script (the page's; others are empty tabs).
function mainThread(events) {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const script = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (mains.has(key) && KIND_OF.get(e.name) === 'script') script.set(key, (script.get(key) ?? 0) + (e.dur ?? 0));
  }
  return [...script].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

// Milliseconds of each kind in the trace (JSON text or a Buffer), divided by
// `changes`.
export function profileOfTrace(trace, changes) {
  const parsed = JSON.parse(String(trace));
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const thread = mainThread(events);
  const totals = Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, 0]));
  if (!thread) return totals;
  const timed = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === thread && KIND_OF.has(e.name))
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Self time: an event's duration less its timed children's (a stack of the
  // events that enclose the current one).
  const stack = [];
  for (const event of timed) {
    while (stack.length > 0 && stack.at(-1).ts + stack.at(-1).dur <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) totals[KIND_OF.get(parent.name)] -= Math.min(event.dur, parent.ts + parent.dur - event.ts);
    totals[KIND_OF.get(event.name)] += event.dur;
    stack.push(event);
  }
  return Object.fromEntries(Object.entries(totals).map(([kind, us]) => [kind, us / 1000 / changes]));
}
