// Watch attention learn (d2l 10.7). A small Transformer encoder
// (the core's attentionModel*: embedding plus the positional encoding of the
// section before, then attention-only blocks or d2l's full encoder blocks, then
// a readout at every position) trains in the page on a toy task (the core's
// attentionTask*: reverse, sort, shift, lookup), a few optimiser steps per
// animation frame (run/model-run.js, trainSteps). The loss per step, the held-out
// accuracy per evaluation, every head's attention map of one example
// redrawn as it trains beside the task's ideal pattern, a sequence the
// learner types, and the switches that show what breaks: causal masking,
// variable lengths (padding), d2l's embedding scale. Every number is the
// core's; this module lays the run out (argmax of the logits to show a
// predicted token is display, not arithmetic on data).
import { max } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { createLinePlot } from '../figures/line-plot.js';
import { createMatrix } from '../figures/matrix.js';
import { createFormula } from '../figures/formula.js';
import { element } from '../dom.js';
import { t, translateTree } from '../i18n/index.js';
import { formatNumber } from '../format.js';
import { describeError } from '../section-errors.js';
import { setRichText } from '../i18n/rich-text.js';
import { figureCell, note } from './frame.js';
import { createModelPlayer } from '../run/model-run.js';
import { headColour } from './reshape-diagram.js';
import { AT_FULL_SPEED, AT_LENGTH, AT_VOCAB, offeredModelHeads } from '../state.js';
import { createRunTimeline } from '../run/run-timeline.js';
import { attentionTrainingPytorch } from '../pytorch-attention-training.js';

// The examples shown: the first sequences of the held-out set (the run's
// seed XOR the core's held-out constant, as attentionModelTrain draws it).
export const EXAMPLES = 4;
export const HELD_OUT_SEED_MIX = 0x5bd1e995;
// Held-out accuracy every EVAL_EVERY steps, on HELD_OUT sequences.
export const EVAL_EVERY = 50;
export const HELD_OUT = 256;
// While a run plays, the maps are redrawn a few at a time, for about
// MAPS_FRAME_MS, at most every MAPS_EVERY_MS.
const MAPS_FRAME_MS = 5;
const MAPS_EVERY_MS = 100;
// Steps trained and thrown away in idle time, WARM_UP_CHUNK at a time, so
// the browser has optimised the training code before the first frame of play.
const WARM_UP_STEPS = 30;
const WARM_UP_CHUNK = 3;

const TASK_KEYS = { reverse: 'at.task.reverse', sort: 'at.task.sort', shift: 'at.task.shift', lookup: 'at.task.lookup' };
const EXPLAIN_KEYS = {
  reverse: 'at.explain.reverse', sort: 'at.explain.sort', shift: 'at.explain.shift', lookup: 'at.explain.lookup',
};
const OPTIMIZER_KEYS = { adam: 'at.optimizer.adam', sgd: 'at.optimizer.sgd' };
const STATUS_KEYS = {
  ready: 'at.status.ready', playing: 'at.status.playing', paused: 'at.status.paused', done: 'at.status.done',
  stopped: 'at.status.stopped',
};

// The model and the task of a state, as the core takes them.
export function modelConfig(inputs) {
  return {
    vocab: AT_VOCAB, length: AT_LENGTH, hidden: inputs.atHidden, heads: inputs.atHeads, blocks: inputs.atBlocks,
    ffnHidden: inputs.atFfn,
    // d2l's scale is sqrt(num_hiddens): a setting of the model, chosen here, not data.
    embeddingScale: inputs.atD2lScale ? Math.sqrt(inputs.atHidden) : 1,
    seed: inputs.atSeed,
  };
}

export function taskOptions(inputs, { batch, seed }) {
  return {
    task: inputs.atTask, batch, length: AT_LENGTH, vocab: AT_VOCAB, seed, lag: inputs.atLag,
    variableLengths: inputs.atVariable,
  };
}

export function trainingOptions(inputs, steps) {
  return {
    task: inputs.atTask, steps, optimizer: inputs.atOptimizer, lr: inputs.atLr, seed: inputs.atSeed,
    lag: inputs.atLag, variableLengths: inputs.atVariable, causal: inputs.atCausal,
    evalEvery: EVAL_EVERY, heldOut: HELD_OUT,
  };
}

export const exampleSeed = (seed) => (seed ^ HELD_OUT_SEED_MIX) >>> 0;

// The pace of a playing run: the speed setting in steps a second, its top as fast as the machine allows.
export const stepsPerSecond = (inputs) => (inputs.atSpeed >= AT_FULL_SPEED ? Infinity : inputs.atSpeed);

// Trains up to `steps` steps from `model` as attentionModelTrain would (the
// batch of a step depends on the seed and the step alone, so chunks give
// the model one long call gives). The core evaluates the held-out set (
// HELD_OUT sequences) after every EVAL_EVERY-th step and at the end of
// every call unless told not to (evaluateAtEnd). So a chunk stops at the
// next evaluation step when it reaches one (a frame pays for one
// evaluation, with fewer steps), and a chunk that ends between two
// evaluations evaluates nothing. Returns the core's result: the losses of
// the steps trained and the evaluations made.
export function trainSteps(core, model, inputs, steps) {
  const untilEvaluation = EVAL_EVERY - (model.optimizerState.step % EVAL_EVERY);
  const evaluates = untilEvaluation <= steps;
  return core.attentionModelTrain(model, {
    ...trainingOptions(inputs, evaluates ? untilEvaluation : steps), evaluateAtEnd: evaluates,
  });
}

// The largest logit's token at each of `positions` positions of item `item`
// (the first one on a tie, as the core's accuracy counts): which token the
// model predicts, for display.
function predicted(logits, item, positions) {
  const tokens = [];
  for (let p = 0; p < positions; p += 1) {
    const base = (item * AT_LENGTH + p) * AT_VOCAB;
    let best = 0;
    for (let v = 1; v < AT_VOCAB; v += 1) if (logits[base + v] > logits[base + best]) best = v;
    tokens.push(best);
  }
  return tokens;
}

// A typed sequence: whole numbers separated by spaces or commas, 1 to
// AT_LENGTH of them. Their range ([0, vocab)) is the core's to check.
export function parseSequence(text) {
  const parts = String(text).trim().split(/[\s,，、]+/).filter(Boolean);
  if (parts.length === 0) return { error: 'at.typed.empty' };
  if (parts.length > AT_LENGTH) return { error: 'at.typed.tooLong', count: parts.length };
  const bad = parts.find((part) => !/^\d{1,9}$/.test(part));
  if (bad !== undefined) return { error: 'at.typed.notNumber', part: bad.slice(0, 12) };
  return { tokens: parts.map(Number) };
}

function create({ frame, store, controls, core, errors }) {
  const panel = frame.controlsPanel;
  let context = null; // { inputs, result } of the run on screen
  let selected = 0; // the example drawn in the maps: 0 .. EXAMPLES - 1, or 'typed'
  let typed = null; // { tokens } of the learner's sequence

  // --- Controls ---
  const playButton = controls.button({ labelKey: 'player.play', className: 'button button-primary', action: 'at-play', onClick: () => (player.state.status === 'playing' ? player.pause() : player.play()) });
  const stepButton = controls.button({ labelKey: 'player.step', action: 'at-step', onClick: () => player.step() });
  const resetButton = controls.button({ labelKey: 'player.reset', action: 'at-reset', onClick: () => context && player.reset(context.result.model0, context.inputs.atSteps) });
  const status = element('p', { className: 'player-status', 'aria-live': 'polite', dataset: { role: 'at-status' } });
  const progress = element('progress', { className: 'player-progress', max: 1, value: 0, 'aria-labelledby': 'at-progress-label' });
  const progressLabel = element('span', { className: 'visually-hidden', id: 'at-progress-label', dataset: { i18n: 'at.progress' } });
  const readout = (role, labelKey) => {
    const value = element('output', { className: 'big-number', dataset: { role } });
    const cell = element('div', { className: 'readout-cell' }, [element('span', { className: 'readout-label', dataset: { i18n: labelKey } }), value]);
    return { cell, value };
  };
  const stepReadout = readout('at-step', 'at.currentStep');
  const lossReadout = readout('at-loss', 'at.currentLoss');
  const accuracyReadout = readout('at-accuracy', 'at.currentAccuracy');
  const accuracyStep = element('span', { className: 'small-number', dataset: { role: 'at-accuracy-step' } });
  accuracyReadout.cell.append(accuracyStep);
  const lagControl = controls.numberControl('atLag', { labelKey: 'at.lag', hintKey: 'at.lagHint' });
  const headsControl = controls.numberControl('atHeads', { labelKey: 'at.heads', slider: false });
  const headsHint = element('span', { className: 'control-hint', dataset: { role: 'at-divisors' } });
  headsControl.append(headsHint);
  // A run that diverged: where it stopped, and what to change (beside the player).
  const divergedNote = element('p', { className: 'note note-warning', role: 'alert', dataset: { role: 'at-diverged' } });
  divergedNote.hidden = true;
  const group = (key) => element('h3', { className: 'control-group-title', dataset: { i18n: key } });
  panel.append(
    controls.choiceControl('atTask', { labelKey: 'at.task', optionKeys: TASK_KEYS }),
    lagControl,
    element('div', { className: 'player' }, [resetButton, playButton, stepButton]),
    status,
    divergedNote,
    progressLabel,
    progress,
    element('div', { className: 'readouts readouts-3' }, [stepReadout.cell, lossReadout.cell, accuracyReadout.cell]),
    controls.numberControl('atSpeed', { labelKey: 'at.speed', hintKey: 'at.speedHint' }),
    controls.numberControl('atSteps', { labelKey: 'at.steps' }),
    group('at.modelGroup'),
    controls.numberControl('atHidden', { labelKey: 'at.hidden' }),
    headsControl,
    controls.numberControl('atBlocks', { labelKey: 'at.blocks' }),
    controls.numberControl('atFfn', { labelKey: 'at.ffn', hintKey: 'at.ffnHint' }),
    controls.toggleControl('atD2lScale', { labelKey: 'at.d2lScale' }),
    group('at.trainingGroup'),
    controls.choiceControl('atOptimizer', { labelKey: 'at.optimizer', optionKeys: OPTIMIZER_KEYS }),
    controls.numberControl('atLr', { labelKey: 'at.lr' }),
    controls.numberControl('atSeed', { labelKey: 'at.seed', hintKey: 'at.seedHint', slider: false }),
    controls.nextSeedButton('atSeed', { labelKey: 'at.newSeed', action: 'at-new-seed' }),
    group('at.masksGroup'),
    controls.toggleControl('atCausal', { labelKey: 'at.causal' }),
    controls.toggleControl('atVariable', { labelKey: 'at.variable' }),
  );

  // --- Figures ---
  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  const inputFormula = createFormula(formulas);
  createFormula(formulas).set('\\mathbf H_{b} = \\operatorname{MultiHead}(\\mathbf H_{b-1}, \\mathbf H_{b-1}, \\mathbf H_{b-1}),\\quad \\hat y_i = \\operatorname{argmax}\\,(\\mathbf H_{B}\\mathbf W_{\\text{out}}^\\top + \\mathbf b)_i');
  const explainNote = note(frame.figures, { className: 'note note-callout' });
  explainNote.dataset.role = 'at-explain';
  const causalNote = note(frame.figures, { key: 'at.causalNote', className: 'note note-warning' });
  causalNote.dataset.role = 'at-causal-note';
  const scaleNote = note(frame.figures, { key: 'at.scaleNote', className: 'note note-warning' });
  scaleNote.dataset.role = 'at-scale-note';
  const variableNote = note(frame.figures, { key: 'at.variableNote', className: 'note note-muted' });
  variableNote.dataset.role = 'at-variable-note';

  // Examples: input -> target, and the model's prediction; one is drawn in the maps.
  const examplesBody = figureCell(frame.figures, { captionKey: 'at.examplesCaption', className: 'cell-at-examples' });
  const exampleRows = element('tbody');
  const examplesTable = element('table', { className: 'at-examples', dataset: { role: 'at-examples' } }, [
    element('thead', {}, [element('tr', {}, [
      element('th', { scope: 'col', dataset: { i18n: 'at.exampleShown' } }),
      element('th', { scope: 'col', dataset: { i18n: 'at.exampleInput' } }),
      element('th', { scope: 'col', dataset: { i18n: 'at.exampleTarget' } }),
      element('th', { scope: 'col', dataset: { i18n: 'at.examplePrediction' } }),
    ])]),
    exampleRows,
  ]);
  examplesBody.append(element('div', { className: 'log-scroll' }, [examplesTable]));
  // One row per example, built once (a radio keeps its focus while the run redraws).
  const exampleRowsView = Array.from({ length: EXAMPLES }, (_, item) => {
    const choose = element('input', { type: 'radio', name: 'at-example', value: String(item) });
    choose.addEventListener('change', () => {
      selected = item;
      if (context && scrubbed !== null) drawAhead(timeline.at(scrubbed), false);
      else if (context) drawModel(player.state.model ?? context.result.model0);
    });
    const cells = { input: element('td', { className: 'tokens' }), target: element('td', { className: 'tokens' }), prediction: element('td', { className: 'tokens' }) };
    const row = element('tr', { dataset: { item } }, [element('td', {}, [choose]), cells.input, cells.target, cells.prediction]);
    exampleRows.append(row);
    return { row, choose, ...cells };
  });

  // The learner's own sequence.
  const typedInput = element('input', {
    type: 'text', className: 'text-input', id: 'at-typed-input', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'at-typed-hint', dataset: { role: 'at-typed-input' },
  });
  const typedButton = controls.button({ labelKey: 'at.typed.show', className: 'button', action: 'at-typed-show', onClick: () => showTyped() });
  const typedMessage = element('p', { className: 'control-error', role: 'alert', dataset: { role: 'at-typed-error' } });
  typedMessage.hidden = true;
  const typedResult = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'at-typed-result' } });
  typedInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      showTyped();
    }
  });
  examplesBody.append(element('div', { className: 'at-typed' }, [
    element('label', { className: 'control-label', for: 'at-typed-input', dataset: { i18n: 'at.typed.label' } }),
    element('div', { className: 'control-row' }, [typedInput, typedButton]),
    element('span', { className: 'control-hint', id: 'at-typed-hint', dataset: { i18n: 'at.typed.hint' } }),
    typedMessage,
    typedResult,
  ]));

  // Loss per step and held-out accuracy per evaluation.
  const curves = element('div', { className: 'figure-grid' });
  frame.figures.append(curves);
  const lossPlot = createLinePlot(figureCell(curves, { captionKey: 'at.lossCaption' }), {
    xDomain: [1, 2000], yDomain: [0, 3], layers: ['loss', 'cursor'], labels: { x: 'at.axisStep', y: 'axis.loss' },
    ariaKey: 'at.lossLabel', aspect: 0.62, maxHeight: 300,
  });
  lossPlot.element.dataset.figure = 'at-loss';
  const accuracyPlot = createLinePlot(figureCell(curves, { captionKey: 'at.accuracyCaption' }), {
    xDomain: [0, 2000], yDomain: [0, 1], layers: ['accuracy', 'accuracyDots', 'cursor'], labels: { x: 'at.axisStep', y: 'at.axisAccuracy' },
    ariaKey: 'at.accuracyLabel', aspect: 0.62, maxHeight: 300,
  });
  accuracyPlot.element.dataset.figure = 'at-accuracy';

  // Every head's map (blocks x heads), and the task's ideal pattern.
  const mapsBody = figureCell(frame.figures, { captionKey: 'at.mapsCaption', className: 'cell-heads' });
  const mapsTitle = element('p', { className: 'readout at-maps-title', dataset: { role: 'at-maps-title' } });
  const mapsGrid = element('div', { className: 'head-grid at-head-grid', dataset: { figure: 'at-heads' } });
  const mapsReadout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'at-maps-readout' } });
  // The run's timeline: the maps recorded as it played, to scrub through after it.
  const timeline = createRunTimeline();
  const timelineSlider = element('input', {
    type: 'range', className: 'timeline-slider', min: 0, max: 0, step: 1, value: 0, id: 'at-timeline',
    dataset: { role: 'at-timeline' },
  });
  const timelineStep = element('output', { className: 'small-number', for: 'at-timeline', dataset: { role: 'at-timeline-step' } });
  const timelineRow = element('div', { className: 'at-timeline' }, [
    element('label', { className: 'control-label', for: 'at-timeline', dataset: { i18n: 'at.timeline' } }),
    element('div', { className: 'control-row' }, [timelineSlider, timelineStep]),
    element('span', { className: 'control-hint', dataset: { i18n: 'at.timelineHint' } }),
  ]);
  timelineSlider.addEventListener('input', () => scrubTo(Number(timelineSlider.value)));
  mapsBody.append(mapsTitle, mapsGrid, mapsReadout, timelineRow);

  let cards = []; // { card, title, matrix, block, head } per map, then the ideal's
  let shape = null; // { blocks, heads } the cards were built for
  let shown = null; // { tokens, validLen, weights, item, batch } of the maps on screen

  function hover(card) {
    return (cell) => {
      if (!cell || !shown) {
        mapsReadout.textContent = t('at.mapsHint');
        return;
      }
      const values = { query: cell.row, key: cell.col, qToken: shown.tokens[cell.row], kToken: shown.tokens[cell.col], weight: formatNumber(cell.value, '.4~f') };
      mapsReadout.textContent = card.ideal
        ? t('at.mapsReadoutIdeal', values)
        : t('at.mapsReadout', { ...values, block: card.block + 1, head: card.head + 1 });
    };
  }

  function makeCard({ block = 0, head = 0, ideal = false }) {
    const title = element('span', { className: 'head-title' });
    const body = element('div', { className: 'head-body' });
    const card = element('div', { className: `head-card${ideal ? ' is-ideal' : ''}`, dataset: ideal ? { ideal: 'true' } : { block, head } }, [element('div', { className: 'head-header' }, [title]), body]);
    if (!ideal) card.style.setProperty('--head-colour', headColour(head));
    mapsGrid.append(card);
    const entry = { card, title, block, head, ideal };
    entry.matrix = createMatrix(body, {
      format: '.2f', maxCell: 26, minCell: 12, textMinCell: 999, rowTitleKey: 'at.axisQuery', colTitleKey: 'at.axisKey',
      onHover: hover(entry),
    });
    entry.matrix.element.dataset.figure = ideal ? 'at-ideal' : `at-map-b${block + 1}-h${head + 1}`;
    return entry;
  }

  function buildCards(blocks, heads) {
    if (shape && shape.blocks === blocks && shape.heads === heads) return;
    mapsGrid.replaceChildren();
    cards = [];
    for (let block = 0; block < blocks; block += 1) {
      for (let head = 0; head < heads; head += 1) cards.push(makeCard({ block, head }));
    }
    cards.push(makeCard({ ideal: true }));
    shape = { blocks, heads };
    translateTree(mapsGrid); // the axis titles of the new maps (the page translated itself before)
  }

  // --- The run ---
  const player = createModelPlayer({
    stepsPerSecond: Infinity, // set from the inputs at every reset
    train(model, steps) {
      const { inputs } = context;
      return errors.run(() => trainSteps(core, model, inputs, steps), inputs);
    },
    onChange: (run) => drawRun(run),
    // Each frame's training and drawing as one User Timing entry (the
    // latest only: a PerformanceObserver sees them all), for the tests.
    onFrame({ started, trained, ended, steps }) {
      performance.clearMeasures('attention-lab:attention-training:frame');
      performance.measure('attention-lab:attention-training:frame', {
        start: started, end: ended, detail: { steps, trainMs: trained - started, drawMs: ended - trained },
      });
    },
  });

  // The forward pass of the current model on the examples and, when there
  // is one, on the typed sequence: predictions and maps.
  function forward(model, tokens, batch, validLens) {
    const { inputs } = context;
    return errors.run(() => core.attentionModelForward(model, tokens, { batch, validLens, causal: inputs.atCausal }), inputs);
  }

  function drawRun(run) {
    if (!context) return;
    const { inputs, result } = context;
    const model = run.model ?? result.model0;
    const recorded = recordMoment(run, model);

    playButton.dataset.i18n = run.status === 'playing' ? 'player.pause' : 'player.play';
    playButton.textContent = t(playButton.dataset.i18n);
    stepButton.disabled = run.status === 'done' || run.status === 'stopped';
    status.dataset.status = run.status;
    status.textContent = t(STATUS_KEYS[run.status], { step: run.step, steps: run.target });
    divergedNote.hidden = run.status !== 'stopped';
    divergedNote.textContent = run.status === 'stopped' ? t('at.diverged', { step: run.step }) : '';
    progress.max = run.target;
    progress.value = Math.min(run.step, run.target);

    const lastLoss = run.losses.length > 0 ? run.losses[run.losses.length - 1] : NaN;
    stepReadout.value.textContent = String(run.step);
    stepReadout.value.dataset.value = String(run.step);
    lossReadout.value.textContent = formatNumber(lastLoss, '.4~f');
    lossReadout.value.dataset.value = Number.isFinite(lastLoss) ? String(lastLoss) : '';
    const accuracy = run.heldOut;
    accuracyReadout.value.textContent = accuracy === null ? '—' : `${formatNumber(accuracy * 100, '.1f')} %`;
    accuracyReadout.value.dataset.value = accuracy === null ? '' : String(accuracy);
    accuracyStep.textContent = accuracy === null ? '' : t('at.accuracyAt', { step: run.evaluatedAt[run.evaluatedAt.length - 1] });

    const steps = Float64Array.from(run.losses, (_, i) => i + 1);
    lossPlot.setDomains({
      x: [1, Math.max(2, run.target)],
      y: scaleLinear().domain([0, max(run.losses) ?? 3]).nice().domain(),
    });
    lossPlot.set('loss', { kind: 'line', xs: steps, ys: run.losses, className: 'loss' });
    accuracyPlot.setDomains({ x: [0, Math.max(1, run.target)] });
    accuracyPlot.set('accuracy', { kind: 'line', xs: run.evaluatedAt, ys: run.accuracy, className: 'accuracy' });
    accuracyPlot.set('accuracyDots', { kind: 'dots', xs: run.evaluatedAt, ys: run.accuracy, className: 'accuracy-dot', r: run.target > 2000 ? 0 : 2.5 });
    lossPlot.element.dataset.steps = String(run.losses.length);
    accuracyPlot.element.dataset.evaluations = String(run.accuracy.length);
    showTimeline(run);

    // While the run plays, the maps are redrawn a few at a time (within
    // MAPS_FRAME_MS a frame, round the grid), and not in a frame that
    // evaluated the held-out set: with many heads, all at once would cost
    // more than the frame's budget. Paused or done, they are drawn at once.
    // Playing, that is MAPS_EVERY_MS apart at most (the examples' predictions too).
    // The frame that ends a run has trained too: its full drawing waits for
    // the next frame.
    const playing = run.status === 'playing';
    const evaluatedNow = run.lastChunk > 0 && run.evaluatedAt[run.evaluatedAt.length - 1] === run.step;
    const now = performance.now();
    if (finalFrame) cancelAnimationFrame(finalFrame);
    finalFrame = 0;
    if ((run.status === 'done' || run.status === 'stopped') && wasPlaying) {
      finalFrame = requestAnimationFrame(() => {
        finalFrame = 0;
        if (context) drawModel(player.state.model ?? context.result.model0);
      });
    } else if (!playing || (!evaluatedNow && now - lastMaps >= MAPS_EVERY_MS)) {
      drawModel(model, playing, recorded);
      lastMaps = now;
    }
    wasPlaying = playing;
  }
  let lastMaps = 0;
  let wasPlaying = false;
  let finalFrame = 0;

  // The examples' forward pass of the model the run has reached, kept in the
  // timeline when it is due (and at the run's end); returned when it was made.
  function recordMoment(run, model) {
    if (run.step === 0 || (timeline.lastStep !== null && run.step < timeline.lastStep)) timeline.reset(run.target);
    const ended = run.status === 'done' || run.status === 'stopped';
    if (!timeline.due(run.step) && !(ended && timeline.lastStep !== run.step)) return null;
    const ahead = examplesForward(model);
    if (ahead) timeline.record(run.step, ahead);
    return ahead;
  }

  // The slider over the recorded moments: usable when the run is not playing.
  let scrubbed = null; // the index of the moment on screen, or null: the run's current model
  function showTimeline(run) {
    const usable = run.status !== 'playing' && timeline.length > 1;
    timelineSlider.max = String(Math.max(0, timeline.length - 1));
    timelineSlider.disabled = !usable;
    if (scrubbed === null || run.status === 'playing') {
      scrubbed = null;
      timelineSlider.value = timelineSlider.max;
    }
    const moment = timeline.at(scrubbed ?? timeline.length - 1);
    timelineStep.textContent = moment ? t('at.timelineStep', { step: moment.step }) : '';
    timelineStep.dataset.step = moment ? String(moment.step) : '';
    const rule = scrubbed === null ? null : { kind: 'rule', x: moment.step, className: 'timeline-cursor' };
    lossPlot.set('cursor', rule);
    accuracyPlot.set('cursor', rule);
  }

  // Back to a recorded moment of the run: its maps and predictions, and a
  // cursor at its step on the curves. The last moment is the run as it is.
  function scrubTo(index) {
    if (!context || player.state.status === 'playing') return;
    scrubbed = index >= timeline.length - 1 ? null : index;
    showTimeline(player.state);
    const moment = timeline.at(index);
    if (moment) drawAhead(moment, false);
  }

  // A page's first training calls run code the browser has not optimised
  // yet (it compiles wasm functions on first use, then again, faster, once
  // they are hot): the first frames of play ran long (20-35 ms for one or
  // two steps). So in idle time after the section is drawn, WARM_UP_STEPS
  // steps are trained a few at a time and thrown away.
  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 0));
  const cancelIdle = globalThis.cancelIdleCallback ?? clearTimeout;
  let warmUp = 0;
  let warmUpLeft = WARM_UP_STEPS;
  function scheduleWarmUp() {
    if (warmUpLeft <= 0 || warmUp) return;
    warmUp = idle(() => {
      warmUp = 0;
      if (!context || player.state.status === 'playing') return; // playing warms it anyway
      const steps = Math.min(WARM_UP_CHUNK, warmUpLeft);
      warmUpLeft -= steps;
      try {
        trainSteps(core, context.result.model0, context.inputs, steps);
      } catch {
        warmUpLeft = 0; // a refused model says so when it is played
      }
      scheduleWarmUp();
    });
  }

  function examplesForward(model) {
    const { inputs, result: { examples } } = context;
    return forward(model, examples.tokens, EXAMPLES, inputs.atVariable ? examples.validLens : null);
  }

  // The model's predictions and maps of the examples (`ahead`: its forward
  // pass, when it was just made).
  function drawModel(model, partial = false, ahead = null) {
    const made = ahead ?? examplesForward(model);
    if (made) drawAhead(made, partial, model);
  }

  // Predictions and maps from a forward pass on the examples; `model` for the
  // typed sequence (a recorded moment has none: its maps are the examples').
  function drawAhead(ahead, partial, model = null) {
    const { inputs, result } = context;
    const { examples } = result;
    exampleRowsView.forEach((row, item) => {
      const validLen = examples.validLens[item];
      const slice = (array) => Array.from(array.subarray(item * AT_LENGTH, item * AT_LENGTH + validLen));
      const input = slice(examples.tokens);
      const target = slice(examples.targets);
      const guess = predicted(ahead.logits, item, validLen);
      row.choose.checked = selected === item;
      row.choose.setAttribute('aria-label', t('at.exampleChoose', { item: item + 1 }));
      row.row.classList.toggle('is-selected', selected === item);
      Object.assign(row.row.dataset, { prediction: guess.join(' '), target: target.join(' ') });
      row.input.textContent = input.join(' ');
      row.target.textContent = target.join(' ');
      row.prediction.replaceChildren(...guess.map((token, p) => element('span', {
        className: token === target[p] ? 'token-right' : 'token-wrong',
      }, [`${p > 0 ? ' ' : ''}${token}`])));
    });

    let maps;
    if (selected === 'typed' && typed && model) {
      maps = typedForward(model);
      if (!maps) {
        selected = 0;
        typed = null;
      }
    }
    if (!maps) {
      const item = selected === 'typed' ? 0 : selected;
      const validLen = examples.validLens[item];
      maps = {
        weights: ahead.weights, batch: EXAMPLES, item, validLen,
        tokens: Array.from(examples.tokens.subarray(item * AT_LENGTH, (item + 1) * AT_LENGTH)),
        ideal: result.ideals[item],
      };
      mapsTitle.textContent = t('at.mapsExample', { item: item + 1, tokens: maps.tokens.slice(0, validLen).join(' ') });
    }
    drawMaps(maps, inputs, partial);
  }

  // The typed sequence through the current model: its prediction and maps.
  function typedForward(model) {
    const { tokens } = typed;
    const padded = Int32Array.from({ length: AT_LENGTH }, (_, p) => (p < tokens.length ? tokens[p] : 0));
    let ahead;
    try {
      ahead = core.attentionModelForward(model, padded, {
        batch: 1, validLens: tokens.length < AT_LENGTH ? [tokens.length] : null, causal: context.inputs.atCausal,
      });
    } catch (error) {
      typedMessage.textContent = describeError(error);
      typedMessage.hidden = false;
      typedResult.textContent = '';
      delete typedResult.dataset.prediction;
      return null;
    }
    const guess = predicted(ahead.logits, 0, tokens.length);
    typedResult.textContent = t('at.typed.result', { input: tokens.join(' '), prediction: guess.join(' ') });
    typedResult.dataset.prediction = guess.join(' ');
    mapsTitle.textContent = t('at.mapsTyped', { tokens: tokens.join(' ') });
    return { weights: ahead.weights, batch: 1, item: 0, validLen: tokens.length, tokens: Array.from(padded), ideal: null };
  }

  function showTyped() {
    const parsed = parseSequence(typedInput.value);
    if (parsed.error) {
      typedMessage.textContent = t(parsed.error, { count: parsed.count, most: AT_LENGTH, part: parsed.part });
      typedMessage.hidden = false;
      typedResult.textContent = '';
      delete typedResult.dataset.prediction;
      return;
    }
    typedMessage.hidden = true;
    typedMessage.textContent = '';
    typed = parsed;
    selected = 'typed';
    if (context) drawModel(player.state.model ?? context.result.model0);
  }

  // The maps of one sequence: block b, head h of item `item` in a batch of
  // `batch` is the core's weights[b][item][h] (blocks x batch x heads x L x L).
  let cursor = 0; // the next map a playing run redraws
  function drawMaps(maps, inputs, partial) {
    const { atBlocks: blocks, atHeads: heads, atCausal: causal } = inputs;
    buildCards(blocks, heads);
    shown = maps;
    const cells = AT_LENGTH * AT_LENGTH;
    const names = maps.tokens.map((token, p) => (p < maps.validLen ? String(token) : '·'));
    // Padding (query or key past the valid length) and, with causal masking,
    // keys after the query: hatched, as the mask hides them.
    const masked = Uint8Array.from({ length: cells }, (_, index) => {
      const row = Math.floor(index / AT_LENGTH);
      const col = index % AT_LENGTH;
      return row >= maps.validLen || col >= maps.validLen || (causal && col > row) ? 1 : 0;
    });
    const drawCard = (card) => {
      if (card.ideal) {
        card.card.hidden = maps.ideal === null;
        card.title.textContent = t('at.idealTitle');
        card.matrix.svg.setAttribute('aria-label', t('at.idealLabel'));
        if (maps.ideal) {
          card.matrix.set({ values: maps.ideal, rows: AT_LENGTH, cols: AT_LENGTH, domain: [0, 1], rowNames: names, colNames: names, masked, maskedText: '' });
        }
        return;
      }
      const offset = ((card.block * maps.batch + maps.item) * heads + card.head) * cells;
      card.title.textContent = t('at.headTitle', { block: card.block + 1, head: card.head + 1 });
      card.matrix.svg.setAttribute('aria-label', t('at.headLabel', { block: card.block + 1, head: card.head + 1 }));
      card.matrix.set({
        values: maps.weights.subarray(offset, offset + cells), rows: AT_LENGTH, cols: AT_LENGTH, domain: [0, 1],
        rowNames: names, colNames: names, masked, maskedText: '',
      });
    };
    if (partial) {
      const started = performance.now();
      for (let count = 0; count < cards.length; count += 1) {
        drawCard(cards[cursor % cards.length]);
        cursor = (cursor + 1) % cards.length;
        if (performance.now() - started >= MAPS_FRAME_MS) break;
      }
    } else {
      cards.forEach(drawCard);
      cursor = 0;
    }
    mapsGrid.dataset.item = String(maps.item);
    mapsGrid.dataset.typed = String(selected === 'typed');
    if (!mapsReadout.textContent) mapsReadout.textContent = t('at.mapsHint');
  }

  // A change of task, model, optimiser, masks or seed starts the run again
  // from the same start; more or fewer steps only move its end.
  const resetting = ['atTask', 'atLag', 'atCausal', 'atVariable', 'atHidden', 'atHeads', 'atBlocks', 'atFfn', 'atD2lScale', 'atOptimizer', 'atLr', 'atSeed'];

  return {
    draw(result, inputs, changed) {
      context = { inputs, result };
      inputFormula.set(`\\mathbf H_0 = ${inputs.atD2lScale ? `\\sqrt{${inputs.atHidden}}\\,` : ''}\\operatorname{Embed}(\\text{tokens}) + \\mathbf P`);
      lagControl.classList.toggle('is-disabled', inputs.atTask !== 'shift');
      headsHint.textContent = t('at.headsHint', { hidden: inputs.atHidden, list: offeredModelHeads(inputs.atHidden).join(', ') });
      // Named for the next language switch, written now (the page's first
      // translation ran before this draw).
      explainNote.dataset.i18nRich = EXPLAIN_KEYS[inputs.atTask];
      explainNote.dataset.task = inputs.atTask;
      setRichText(explainNote, t(EXPLAIN_KEYS[inputs.atTask]));
      typedInput.placeholder = t('at.typed.placeholder');
      causalNote.hidden = !inputs.atCausal;
      scaleNote.hidden = !inputs.atD2lScale;
      variableNote.hidden = !inputs.atVariable;
      if (changed.has('language')) mapsReadout.textContent = t('at.mapsHint');
      if (changed.has('atSpeed') || resetting.some((name) => changed.has(name))) player.setSpeed(stepsPerSecond(inputs));
      if (resetting.some((name) => changed.has(name))) {
        if (selected !== 'typed') selected = Math.min(Number(selected), EXAMPLES - 1);
        scrubbed = null;
        timeline.reset(inputs.atSteps);
        player.reset(result.model0, inputs.atSteps);
        scheduleWarmUp();
      } else if (changed.has('atSteps')) {
        player.setTarget(inputs.atSteps);
      } else {
        drawRun(player.state); // the language: re-label what the run wrote
      }
    },
    // The section is going away: the run stops, no frame stays pending.
    dispose() {
      player.dispose();
      if (finalFrame) cancelAnimationFrame(finalFrame);
      finalFrame = 0;
      if (warmUp) cancelIdle(warmUp);
      warmUp = 0;
      context = null;
      shown = null;
    },
  };
}

// The model's first state and the examples, for the inputs: cheap (no
// training here; the run trains on its own clock).
function compute(core, inputs) {
  const model0 = core.attentionModelInit(modelConfig(inputs));
  const options = taskOptions(inputs, { batch: EXAMPLES, seed: exampleSeed(inputs.atSeed) });
  const examples = core.attentionTaskBatch(options);
  const ideals = Array.from({ length: EXAMPLES }, (_, item) => core.attentionTaskIdeal(options, item));
  return { model0, examples, ideals };
}

export const attentionTrainingSection = {
  id: 'attention-training',
  frame: { titleKey: 'at.title', leadKeys: ['at.lead1', 'at.lead2'] },
  inputs: ['atTask', 'atLag', 'atCausal', 'atVariable', 'atHidden', 'atHeads', 'atBlocks', 'atFfn', 'atD2lScale',
    'atOptimizer', 'atLr', 'atSteps', 'atSpeed', 'atSeed'],
  arguments: {
    task: 'atTask', lag: 'atLag', causal: 'atCausal', variableLengths: 'atVariable', hidden: 'atHidden',
    heads: 'atHeads', blocks: 'atBlocks', ffnHidden: 'atFfn', embeddingScale: 'atD2lScale', optimizer: 'atOptimizer',
    lr: 'atLr', steps: 'atSteps', seed: 'atSeed',
  },
  create,
  compute,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: attentionTrainingPytorch,
};
