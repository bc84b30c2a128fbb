// Learning the width w by gradient descent (d2l 10.2.4). The core
// trains (trainKernelWidth), measures the loss and its gradient
// (kernelWidthLoss) and the landscape L(w) (lossLandscape); this module
// lays the run out: loss per epoch, w moving on the landscape, the
// prediction and the heatmap sharpening, and the leave-one-out switch.
import { extent, max, range } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { createLinePlot } from '../../figures/line-plot.js';
import { createHeatmap } from '../../figures/heatmap.js';
import { createFormula } from '../../figures/formula.js';
import { createWidthPlayer } from '../../run/width-run.js';
import { createFrameQueue } from '../../frame-queue.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber, texNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { liveLead } from './live-lead.js';
import { setup, curveQueries, testQueries, dataset, dataYDomain, truth, DATASET_INPUTS } from '../shared/kernel-regression.js';
import { poolingSnippet } from '../shared/kernel-regression-pytorch.js';
import { BATCH_PRODUCT_INPUTS, createBatchProductPanel } from './batch-product-panel.js';
import { TRAINING_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const MODEL_TEX =
  'f(x) = \\sum_{i=1}^{n} \\operatorname{softmax}_i\\!\\Big(-\\tfrac{1}{2}\\big((x - x_i)\\,w\\big)^2\\Big)\\, y_i';
const LOSS_TEX = {
  true: 'L(w) = \\sum_{i=1}^{n} \\big(f_{-i}(x_i) - y_i\\big)^2',
  false: 'L(w) = \\sum_{i=1}^{n} \\big(f(x_i) - y_i\\big)^2',
};
const W_FORMAT = '.6~g';
const LOSS_FORMAT = '.6~g';
// A run is said to run away when |w| passes this many times the top of the
// landscape's first range (setup.landscapeW): far from where it is drawn.
const RUNAWAY_FACTOR = 2;
// A loss that grows by less than this share of itself is the flat ground of
// a plateau, not an overshoot.
const GROWTH_TOLERANCE = 1e-3;

// What to tell the learner about a run that has left the valley: the first
// epoch whose loss grew (the steps overshoot), or w far outside the drawn
// range; null while the run descends.
function runWarning(ws, losses, { lr, leaveOneOut }) {
  const rate = formatNumber(lr, '.4~g');
  const wNow = ws[ws.length - 1];
  if (Math.abs(wNow) > RUNAWAY_FACTOR * setup.landscapeW[1]) {
    return t(leaveOneOut ? 'training.runaway' : 'training.runawayNoLoo', { w: formatNumber(wNow, '.4~g'), lr: rate });
  }
  for (let i = 1; i < losses.length; i += 1) {
    if (losses[i] > losses[i - 1] * (1 + GROWTH_TOLERANCE)) {
      return t('training.diverging', {
        from: i, to: i + 1, lr: rate,
        before: formatNumber(losses[i - 1], '.4~g'), after: formatNumber(losses[i], '.4~g'),
      });
    }
  }
  return null;
}

/** @param {number[]} values @param {number[]} fallback */
function niceDomain(values, fallback) {
  const [low, high] = extent(values.filter(Number.isFinite));
  if (low === undefined) return fallback;
  return scaleLinear().domain([Math.min(0, low), high > 0 ? high : 1]).nice().domain();
}

// The run on screen trains on its own clock (the player), so the view keeps
// the core it was given and calls it as the run advances.
function create({ frame, store, controls, core, errors }) {
  const panel = frame.controlsPanel;
  let context = null; // { inputs, data } of the run on screen
  let draws = 0; // how many initial w were drawn: the seed of the next draw

  const drawW0 = controls.button({
    labelKey: 'training.drawW0', className: 'button button-quiet', action: 'draw-w0',
    onClick: () => {
      draws += 1;
      // The book's initialisation w ~ U[0, 1), drawn by the core's seeded generator.
      const drawn = errors.run(() => core.randomUniform(1, { seed: draws })[0]);
      if (drawn !== undefined) store.set({ w0: drawn });
    },
  });
  const playButton = controls.button({ labelKey: 'player.play', className: 'button button-primary', action: 'play', onClick: () => (player.state.status === 'playing' ? player.pause() : player.play()) });
  const stepButton = controls.button({ labelKey: 'player.step', action: 'step', onClick: () => player.step() });
  const resetButton = controls.button({ labelKey: 'player.reset', action: 'reset', onClick: () => player.reset(store.get().w0, store.get().epochs) });
  const status = element('p', { className: 'player-status', 'aria-live': 'polite', dataset: { role: 'status' } });
  const progress = element('progress', { className: 'player-progress', max: 1, value: 0 });
  const wReadout = element('output', { className: 'big-number', dataset: { role: 'w' } });
  const lossReadout = element('output', { className: 'big-number', dataset: { role: 'loss' } });
  const gradientReadout = element('output', { className: 'small-number', dataset: { role: 'gradient' } });
  panel.append(
    element('div', { className: 'player' }, [resetButton, playButton, stepButton]),
    status,
    progress,
    element('div', { className: 'readouts' }, [
      element('div', { className: 'readout-cell' }, [element('span', { className: 'readout-label', dataset: { i18n: 'training.currentW' } }), wReadout]),
      element('div', { className: 'readout-cell' }, [element('span', { className: 'readout-label', dataset: { i18n: 'training.currentLoss' } }), lossReadout, gradientReadout]),
    ]),
    controls.numberControl('lr', { labelKey: 'training.lr' }),
    controls.numberControl('epochs', { labelKey: 'training.epochs' }),
    controls.numberControl('w0', { labelKey: 'training.w0' }),
    drawW0,
    controls.toggleControl('leaveOneOut', { labelKey: 'training.leaveOneOut' }),
  );
  const fillLead = liveLead(frame, 'training.lead');
  const leadSettings = ({ lr, epochs }) => ({ lr: texNumber(lr, '.4~g'), epochs });
  fillLead(leadSettings(store.get())); // shown even if the first computation is refused
  const zeroNote = note(panel, { key: 'training.zeroStart', className: 'note note-warning' });
  const stopNote = note(panel, { className: 'note note-warning' });
  stopNote.dataset.role = 'stopped';

  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  createFormula(formulas).set(MODEL_TEX);
  const lossFormula = createFormula(formulas);
  createFormula(formulas).set('w \\leftarrow w - \\eta\\, \\frac{\\partial L}{\\partial w}');
  const looExplanation = note(frame.figures, { key: 'training.whyLoo', className: 'note note-callout' });
  const looOffWarning = note(frame.figures, { key: 'training.looOff', className: 'note note-warning' });
  looOffWarning.dataset.role = 'loo-off';

  const grid = element('div', { className: 'figure-grid' });
  frame.figures.append(grid);

  const lossBody = figureCell(grid, { captionKey: 'training.lossCaption' });
  const lossPlot = createLinePlot(lossBody, {
    xDomain: [1, 5], yDomain: [0, 1], layers: ['loss', 'lossDots'],
    labels: { x: 'axis.epoch', y: 'axis.loss' }, ariaKey: 'training.lossLabel', aspect: 0.62, maxHeight: 300,
  });
  lossPlot.element.dataset.figure = 'loss';
  // Right under the loss plot: what the curve shows when a run leaves the valley.
  const runNote = note(lossBody, { className: 'note note-warning' });
  runNote.dataset.role = 'run-warning';
  runNote.hidden = true;
  const log = element('details', { className: 'epoch-log' }, [
    element('summary', { dataset: { i18n: 'training.logTitle' } }),
  ]);
  const logBody = element('tbody');
  log.append(element('div', { className: 'log-scroll' }, [element('table', {}, [
    element('thead', {}, [element('tr', {}, [
      element('th', { dataset: { i18n: 'training.logEpoch' } }),
      element('th', { dataset: { i18n: 'training.logLoss' } }),
      element('th', { dataset: { i18n: 'training.logW' } }),
    ])]),
    logBody,
  ])]));
  lossBody.append(log);

  const landscapePlot = createLinePlot(figureCell(grid, { captionKey: 'training.landscapeCaption' }), {
    xDomain: setup.landscapeW, yDomain: [0, 1], layers: ['other', 'landscape', 'path', 'steps', 'current'],
    labels: { x: 'axis.w', y: 'axis.loss' }, ariaKey: 'training.landscapeLabel', aspect: 0.62, maxHeight: 300,
    legend: [
      { key: 'legend.withLoo', className: 'landscape-loo', kind: 'line' },
      { key: 'legend.withoutLoo', className: 'landscape-noloo', kind: 'line' },
      { key: 'legend.steps', className: 'steps', kind: 'point' },
      { key: 'legend.currentW', className: 'current', kind: 'point' },
    ],
  });
  landscapePlot.element.dataset.figure = 'landscape';

  const predictionPlot = createLinePlot(figureCell(grid, { captionKey: 'training.predictionCaption' }), {
    xDomain: [0, setup.xMax], yDomain: setup.plotY, layers: ['truth', 'points', 'start', 'prediction'],
    labels: { x: 'axis.x', y: 'axis.y' }, ariaKey: 'training.predictionLabel', aspect: 0.62, maxHeight: 300,
    legend: [
      { key: 'legend.truth', className: 'truth', kind: 'line' },
      { key: 'legend.startPrediction', className: 'start', kind: 'line' },
      { key: 'legend.prediction', className: 'prediction', kind: 'line' },
    ],
  });
  predictionPlot.element.dataset.figure = 'training-prediction';

  const heatmapBody = figureCell(grid, { captionKey: 'training.heatmapCaption' });
  const heatmap = createHeatmap(heatmapBody, {
    labels: { x: 'heatmap.axisX', y: 'heatmap.axisY' }, colorLabelKey: 'heatmap.colorbar',
    ariaKey: 'training.heatmapLabel', aspect: 0.62, maxHeight: 300,
  });
  heatmap.element.dataset.figure = 'training-heatmap';
  // torch.bmm, which the model's formula above uses, after the training's own
  // figures: the panel's controls (Play) then sit beside the curves they move.
  const batchProduct = createBatchProductPanel(frame.figures, { controls, core });

  const queue = createFrameQueue();
  let landscape = null; // { domain, ws, loo, noLoo }

  const player = createWidthPlayer({
    train(wStart, epochs) {
      const { inputs, data } = context;
      return errors.run(() => core.trainKernelWidth(data.x, data.y,
        { w0: wStart, lr: inputs.lr, epochs, leaveOneOut: inputs.leaveOneOut }), inputs);
    },
    onChange: (run) => drawRun(run),
  });

  // The landscape for both settings of the switch, filled in chunk by chunk.
  function computeLandscape(domain) {
    const { data } = context;
    const n = data.x.length;
    const intervals = n <= 300 ? 120 : 60; // fewer points when each costs n^2 kernel values
    const ws = Float64Array.from(range(intervals + 1), scaleLinear().domain([0, intervals]).range(domain));
    landscape = { domain, ws, loo: new Float64Array(ws.length).fill(NaN), noLoo: new Float64Array(ws.length).fill(NaN) };
    const current = landscape;
    const chunk = Math.max(1, Math.floor(250000 / (n * n)));
    const jobs = [];
    for (const mode of [true, false]) {
      for (let start = 0; start < ws.length; start += chunk) {
        jobs.push(() => {
          if (landscape !== current) return;
          const part = ws.subarray(start, start + chunk);
          const losses = errors.run(() => core.lossLandscape(data.x, data.y, part, { leaveOneOut: mode }), context.inputs);
          if (losses) (mode ? current.loo : current.noLoo).set(losses, start);
          drawLandscape();
        });
      }
    }
    landscapePlot.setDomains({ x: domain });
    queue.replace(jobs);
  }

  function drawLandscape() {
    if (!landscape || !context) return;
    const loo = context.inputs.leaveOneOut;
    const shown = loo ? landscape.loo : landscape.noLoo;
    const other = loo ? landscape.noLoo : landscape.loo;
    const top = max([...landscape.loo, ...landscape.noLoo].filter(Number.isFinite)) ?? 1;
    landscapePlot.setDomains({ y: scaleLinear().domain([0, top]).nice().domain() });
    landscapePlot.set('landscape', { kind: 'line', xs: landscape.ws, ys: shown, className: loo ? 'landscape-loo' : 'landscape-noloo' });
    landscapePlot.set('other', { kind: 'line', xs: landscape.ws, ys: other, className: `${loo ? 'landscape-noloo' : 'landscape-loo'} inactive` });
  }

  function drawRun(run) {
    if (!context) return;
    const { inputs, data } = context;
    const { ws, losses } = run;
    const wNow = ws[ws.length - 1];
    const epoch = losses.length;

    playButton.dataset.i18n = run.status === 'playing' ? 'player.pause' : 'player.play';
    playButton.textContent = t(playButton.dataset.i18n);
    playButton.disabled = run.status === 'stopped';
    stepButton.disabled = run.status === 'stopped' || run.status === 'done';
    status.dataset.status = run.status;
    status.textContent = t(`player.status.${run.status}`, { epoch, epochs: run.target });
    progress.max = run.target;
    progress.value = Math.min(epoch, run.target);
    stopNote.hidden = run.status !== 'stopped';
    stopNote.textContent = run.status === 'stopped' ? t('training.stopped', { epoch: epoch + 1 }) : '';

    const now = errors.run(() => core.kernelWidthLoss(data.x, data.y, wNow, { leaveOneOut: inputs.leaveOneOut }), inputs);
    wReadout.textContent = formatNumber(wNow, W_FORMAT);
    wReadout.dataset.value = String(wNow);
    lossReadout.textContent = now ? formatNumber(now.loss, LOSS_FORMAT) : '—';
    lossReadout.dataset.value = now ? String(now.loss) : '';
    gradientReadout.textContent = now ? t('training.gradient', { value: formatNumber(now.gradient, '.4~g') }) : '';

    // Loss per epoch, and the steps of gradient descent on the landscape.
    const epochs = Float64Array.from(losses, (_, i) => i + 1);
    lossPlot.setDomains({
      x: [1, Math.max(2, run.target)],
      y: scaleLinear().domain([0, max(losses) ?? (now ? now.loss : 1)]).nice().domain(),
    });
    lossPlot.set('loss', { kind: 'line', xs: epochs, ys: losses, className: 'loss' });
    lossPlot.set('lossDots', { kind: 'dots', xs: epochs, ys: losses, className: 'loss-dot', r: run.target > 60 ? 0 : 3 });
    const warning = runWarning(ws, losses, inputs);
    runNote.hidden = warning === null;
    runNote.textContent = warning ?? '';
    updateLog(ws, losses);

    const wanted = niceDomain([...setup.landscapeW, ...ws], setup.landscapeW);
    if (!landscape || wanted[0] < landscape.domain[0] || wanted[1] > landscape.domain[1]) computeLandscape(wanted);
    const visited = ws.slice(0, losses.length);
    landscapePlot.set('path', { kind: 'line', xs: [...visited, wNow], ys: [...losses, now ? now.loss : NaN], className: 'path' });
    landscapePlot.set('steps', { kind: 'dots', xs: visited, ys: losses, className: 'step', r: 3 });
    landscapePlot.set('current', { kind: 'dots', xs: [wNow], ys: [now ? now.loss : NaN], className: 'current', r: 6 });

    const curve = errors.run(() => core.nadarayaWatson(curveQueries, data.x, data.y, { kernel: 'gaussian', w: wNow }), inputs);
    if (curve) predictionPlot.set('prediction', { kind: 'line', xs: curveQueries, ys: curve, className: 'prediction' });
    const weights = errors.run(() => core.attentionWeights(testQueries, data.x, { kernel: 'gaussian', w: wNow }), inputs);
    if (weights) heatmap.setMatrix({ values: weights, rows: testQueries.length, cols: data.x.length, rowValues: testQueries, colValues: data.x });
  }

  let logged = 0;
  function updateLog(ws, losses) {
    if (losses.length < logged) {
      logBody.replaceChildren();
      logged = 0;
    }
    const rows = [];
    for (let i = logged; i < losses.length; i += 1) {
      const row = element('tr', { dataset: { epoch: i + 1, loss: String(losses[i]), w: String(ws[i + 1]) } }, [
        element('td', {}, [String(i + 1)]),
        element('td', {}, [formatNumber(losses[i], LOSS_FORMAT)]),
        element('td', {}, [formatNumber(ws[i + 1], W_FORMAT)]),
      ]);
      rows.push(row);
    }
    logBody.append(...rows);
    logged = losses.length;
  }

  // A new data set, rate, start or objective starts the run again; more epochs only extend it.
  const resetting = [...DATASET_INPUTS, 'lr', 'w0', 'leaveOneOut'];

  return {
    draw({ data, truthCurve, start }, inputs, changed) {
      fillLead(leadSettings(inputs));
      batchProduct.update(inputs);
      lossFormula.set(`${LOSS_TEX[inputs.leaveOneOut]},\\qquad \\eta = ${texNumber(inputs.lr, '.4~g')}`);
      looOffWarning.hidden = inputs.leaveOneOut;
      looExplanation.classList.toggle('is-emphasised', !inputs.leaveOneOut);
      zeroNote.hidden = inputs.w0 !== 0;
      const dataChanged = !context || context.data !== data;
      context = { inputs, data };
      if (dataChanged) {
        landscape = null; // recomputed for the new data by the next drawRun
        predictionPlot.setDomains({ y: dataYDomain(data) });
        predictionPlot.set('truth', { kind: 'line', xs: curveQueries, ys: truthCurve, className: 'truth' });
        predictionPlot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: inputs.n > 300 ? 2 : 3, className: 'point' });
      }
      if (resetting.some((name) => changed.has(name))) {
        predictionPlot.set('start', { kind: 'line', xs: curveQueries, ys: start, className: 'start' });
        player.reset(inputs.w0, inputs.epochs);
      } else if (changed.has('epochs')) {
        player.setTarget(inputs.epochs);
      } else {
        drawRun(player.state); // language: re-label the read-outs
      }
      if (changed.has('leaveOneOut')) drawLandscape();
    },
    // The w the read-out shows (the run's, where it is now), for the
    // exercises' checks: read only.
    currentW() {
      const { ws } = player.state;
      return ws.length > 0 ? ws[ws.length - 1] : null;
    },
    // The section is going away (its element left the page): the run stops,
    // the landscape's pending chunks are dropped, and the data let go.
    dispose() {
      player.dispose();
      queue.clear();
      context = null;
      landscape = null;
    },
  };
}

export const trainingSection = {
  id: 'training',
  order: 50,
  book: {
    en: bookSubsection('attention-pooling', 'adapting-attention-pooling', '11.2.3', 'Adapting Attention Pooling'),
    zh: bookSubsection('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  frame: { titleKey: 'training.title', leadKeys: ['training.lead'] },
  inputs: [...DATASET_INPUTS, 'lr', 'epochs', 'w0', 'leaveOneOut', ...BATCH_PRODUCT_INPUTS],
  arguments: { x: 'n', y: 'n' },
  create,
  compute(core, inputs) {
    const data = dataset(core, inputs);
    return {
      data,
      truthCurve: truth(core),
      start: core.nadarayaWatson(curveQueries, data.x, data.y, { kernel: 'gaussian', w: inputs.w0 }),
    };
  },
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: poolingSnippet,
  exercises: TRAINING_EXERCISES,
  teacherNoteKey: 'training.ex.teacherNote',
};
