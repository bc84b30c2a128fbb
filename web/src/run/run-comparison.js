// Kept runs beside the live one, for a section that trains a model in the
// page (through run/run-view.js): "Keep this run" pins the run at rest
// (run/kept-runs.js), and up to MOST_KEPT kept runs stand beside the live
// one as small multiples at one scale: the held-out accuracy curves
// overlaid in one plot with a legend, each run's attention map of its first
// example (block 1, head 1) side by side, and a table of their figures
// (steps, held-out accuracy, steps to 95 %, ms per step, the settings in
// which each differs from the live run). Hidden while nothing is kept: a
// run pays for it only when there is something to compare. Numbers are the
// runs' own (the core's accuracies and weights; the page's clock for time).
import { element } from '../dom.js';
import { t, translateTree } from '../i18n/index.js';
import { formatNumber } from '../format.js';
import { createLinePlot } from '../figures/line-plot.js';
import { createHeatmap } from '../figures/heatmap.js';
import { figureCell } from '../sections/shared/frame.js';
import { reachWhenScrolling } from '../figures/scroll-reach.js';
import { givenInputs, changedSettings } from '../exercises/given-settings.js';
import { settingText } from '../setting-text.js';
import {
  MOST_KEPT, createKeptRunStore, keptRunOf, msPerStepOf, stepsToReach,
} from './kept-runs.js';

const KEPT_LAYERS = Array.from({ length: MOST_KEPT }, (_, i) => `kept${i + 1}`);
const percent = (share) => (share === null ? '—' : `${formatNumber(share * 100, '.1f')} %`);

// `sectionId`: where its runs are kept; `name`: the prefix of roles and
// figure names; `settingsRoot()`: the section's element, whose controls
// name the settings; `inputs()`: the live run's settings; `keptMap(ahead)`:
// the map kept of a forward pass (rows, cols, values, rowNames, colNames).
export function createRunComparison({
  sectionId, name, frame, controls, settingsRoot, inputs, keptMap,
}) {
  const store = createKeptRunStore(sectionId);
  // The runs kept, as last read: read again as they are drawn (a run kept or
  // removed, a reset, a rest), not at every frame of a playing run.
  let kept = store.list();
  let live = null; // the live run's state (model-run.js)
  let liveEvaluations = -1; // the live run's evaluations drawn: a playing run's curve and figures change with them
  let liveMap = null; // its map, as the run last rested

  // --- The button, under the run's read-outs ---
  const keepButton = controls.button({ labelKey: 'runs.keep', className: 'button', action: `${name}-keep`, onClick: () => keep() });
  const keepNote = element('p', { className: 'control-hint', 'aria-live': 'polite', dataset: { role: `${name}-keep-note` } });
  const controlNodes = [element('div', { className: 'keep-run' }, [keepButton, keepNote])];

  // --- The comparison ---
  const body = figureCell(frame.figures, { captionKey: 'runs.caption', className: 'cell-compare' });
  const cell = /** @type {HTMLElement} */ (body.closest('figure'));
  cell.dataset.figure = `${name}-compare`;
  const plot = createLinePlot(body, {
    xDomain: [0, 1], yDomain: [0, 1], layers: [...KEPT_LAYERS, 'live'], labels: { x: 'runs.axisStep', y: 'runs.axisAccuracy' },
    ariaKey: 'runs.plotLabel', aspect: 0.5, maxHeight: 260,
  });
  plot.element.dataset.figure = `${name}-compare-curves`;
  const legend = element('ul', { className: 'legend runs-legend', dataset: { role: `${name}-compare-legend` } });
  const maps = element('div', { className: 'runs-maps', dataset: { role: `${name}-compare-maps` } });
  const rows = element('tbody');
  const table = element('table', { className: 'runs-table', dataset: { role: `${name}-compare-table` } }, [
    element('thead', {}, [element('tr', {}, ['runs.run', 'runs.settings', 'runs.steps', 'runs.accuracy', 'runs.toGoal', 'runs.msPerStep', 'runs.remove']
      .map((key) => element('th', { scope: 'col', dataset: { i18n: key } })))]),
    rows,
  ]);
  // The table scrolls sideways on a phone, reached by the keyboard then.
  const tableScroll = element('div', { className: 'runs-table-scroll' }, [table]);
  body.append(legend, maps, tableScroll);
  reachWhenScrolling(tableScroll, 'scroll.table', () => table);

  // One map card per run, built as the list of runs changes (the live one first).
  let cards = [];
  function buildCards(count) {
    if (cards.length === count) return;
    maps.replaceChildren();
    cards = Array.from({ length: count }, (_, index) => {
      const title = element('p', { className: 'readout runs-map-title' });
      const holder = element('div', { className: 'runs-map', dataset: { run: index === 0 ? 'live' : String(index) } }, [title]);
      maps.append(holder);
      const heatmap = createHeatmap(holder, {
        labels: { x: 'runs.axisKey', y: 'runs.axisQuery' }, colorLabelKey: 'runs.axisWeight', ariaKey: 'runs.mapLabel',
        aspect: 1, minHeight: 150, maxHeight: 200,
      });
      return { title, heatmap, holder };
    });
    translateTree(maps);
  }

  const runName = (index) => (index === 0 ? t('runs.live') : t('runs.kept', { index }));

  // Where a kept run's settings differ from the live run's, in the controls' words.
  function differences(kept) {
    const now = inputs();
    if (!now) return '';
    const given = givenInputs(kept.given, now);
    const names = changedSettings(now, given);
    if (names.length === 0) return t('runs.sameSettings');
    return names.map((setting) => settingText(settingsRoot(), setting, given[setting])).join(t('exercises.settingList'));
  }

  // A run's figures as the table's cells show them: [text, data-value]
  // of steps, held-out accuracy, steps to 95 % and ms per step.
  const figureCells = (run) => [
    [String(run.step), String(run.step)],
    [percent(run.heldOut), run.heldOut === null ? '' : String(run.heldOut)],
    [run.stepsToGoal === null ? t('runs.notReached') : String(run.stepsToGoal), run.stepsToGoal === null ? '' : String(run.stepsToGoal)],
    [run.msPerStep === null ? '—' : formatNumber(run.msPerStep, '.3~g'), null],
  ];

  const liveFigures = () => ({
    step: live.step, heldOut: live.heldOut, stepsToGoal: stepsToReach(live.evaluatedAt, live.accuracy),
    msPerStep: msPerStepOf(live),
  });

  function row(index, run, settings) {
    const remove = index === 0 ? null : controls.button({
      labelKey: 'runs.removeOne', className: 'button', action: `${name}-remove-${index}`, onClick: () => removeRun(index - 1),
    });
    remove?.setAttribute('aria-label', t('runs.removeLabel', { run: runName(index) }));
    return element('tr', { className: index === 0 ? 'run-live' : `run-kept run-kept-${index}`, dataset: { run: index === 0 ? 'live' : String(index) } }, [
      element('th', { scope: 'row' }, [runName(index)]),
      element('td', {}, [settings]),
      ...figureCells(run).map(([text, value]) => element('td', value === null ? {} : { dataset: { value } }, [text])),
      element('td', {}, remove ? [remove] : []),
    ]);
  }

  // Everything kept, drawn again (a run kept or removed, a language, new live settings).
  function drawKept() {
    kept = store.list();
    cell.hidden = kept.length === 0;
    keepButton.disabled = !keepable();
    liveEvaluations = -1;
    if (kept.length === 0) return;
    const longest = Math.max(live?.target ?? 1, ...kept.map((run) => run.step));
    plot.setDomains({ x: [0, longest] });
    KEPT_LAYERS.forEach((layer, i) => {
      const run = kept[i];
      plot.set(layer, run ? { kind: 'line', xs: run.evaluatedAt, ys: run.accuracy, className: `run-line run-kept-${i + 1}` } : null);
    });
    legend.replaceChildren(...[live, ...kept].map((_, index) => element('li', {
      className: `legend-item ${index === 0 ? 'run-live' : `run-kept-${index}`}`,
    }, [element('span', { className: 'legend-swatch', 'aria-hidden': 'true' }), element('span', {}, [runName(index)])])));
    buildCards(kept.length + 1);
    kept.forEach((run, i) => drawMap(cards[i + 1], run.map, runName(i + 1), run.step));
    rows.replaceChildren(row(0, live ? liveFigures() : { step: 0, heldOut: null, stepsToGoal: null, msPerStep: null }, ''),
      ...kept.map((run, i) => row(i + 1, run, differences(run))));
    translateTree(rows); // the Remove buttons' labels
    drawLive();
  }

  function drawMap(card, map, title, step) {
    if (!card) return;
    card.title.textContent = t('runs.mapTitle', { run: title, step, tokens: map ? map.colNames.filter((name) => name !== '·').join(' ') : '' });
    card.holder.hidden = map === null;
    if (map) card.heatmap.setMatrix({ values: map.values, rows: map.rows, cols: map.cols, domain: [0, 1] });
  }

  // The live run's curve and figures, as it trains (only while runs are kept).
  function drawLive() {
    if (cell.hidden || !live) return;
    // Playing, only when an evaluation landed (the step and time are the run's read-outs meanwhile).
    if (live.status === 'playing' && live.evaluatedAt.length === liveEvaluations) return;
    liveEvaluations = live.evaluatedAt.length;
    plot.set('live', { kind: 'line', xs: live.evaluatedAt, ys: live.accuracy, className: 'run-line run-live' });
    const cells = rows.firstElementChild?.children;
    if (!cells) return;
    figureCells(liveFigures()).forEach(([text, value], i) => {
      const td = /** @type {HTMLElement} */ (cells[i + 2]);
      td.textContent = text;
      if (value !== null) td.dataset.value = value;
    });
  }

  const keepable = () => live !== null && live.step > 0 && live.status !== 'playing' && liveMap !== null
    && kept.length < MOST_KEPT;

  function keep() {
    if (!keepable()) return;
    try {
      store.keep(keptRunOf({ inputs: inputs(), run: live, map: liveMap }));
      keepNote.textContent = t('runs.keptNote', { index: store.list().length });
    } catch (error) {
      keepNote.textContent = String(error.message);
    }
    drawKept();
  }

  function removeRun(index) {
    store.remove(index);
    keepNote.textContent = '';
    drawKept();
  }

  // Drawn once the run is set (the section's inputs are known then).
  cell.hidden = true;
  keepButton.disabled = true;

  return {
    controlNodes,
    // The live run as the run view draws it; `restedAhead`: its forward
    // pass when it rests (the map it would keep), else undefined.
    showRun(run, restedAhead) {
      const settled = run.status !== 'playing';
      const changed = live === null || settled !== (live.status !== 'playing') || run.step === 0;
      live = run;
      if (restedAhead !== undefined) liveMap = restedAhead ? keptMap(restedAhead) : null;
      if (run.step === 0) liveMap = null;
      // What can be kept changes only as the run starts, rests or is set anew, never while it plays.
      if (changed || restedAhead !== undefined) {
        keepButton.disabled = !keepable();
        const full = t('runs.full', { most: MOST_KEPT });
        if (run.step > 0 && kept.length >= MOST_KEPT) keepNote.textContent = full;
        else if (keepNote.textContent === full) keepNote.textContent = '';
      }
      if (changed) drawKept();
      else drawLive();
      if (!cell.hidden && restedAhead !== undefined) drawMap(cards[0], liveMap, runName(0), run.step);
    },
    // The texts in the page's language, and the live run's settings again.
    relabel: () => drawKept(),
    // The kept runs (kept-runs.js), for the exercises that compare them.
    kept: () => store.list(),
  };
}
