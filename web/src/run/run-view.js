// The view of a model trained in the page, for any section that trains one
// (attention-training, translation, through
// sections/shared/trained-model-view.js): Play, Step and Reset with the
// run's status, progress and read-outs (step, loss, held-out accuracy), the
// loss and accuracy curves, the cell of its attention maps with the timeline
// to scrub back through them, and the maps kept up to date as it plays. The
// section brings what is its own: `train` (k steps from a model, the core's
// result or nothing when refused), `warmUp` (the same, thrown away), the
// maps (`forward`: a model's forward pass to show and record; `draw`: that
// pass on screen), its texts (`keys`, catalogue keys) and `name`, the prefix
// of its elements' roles, ids and figure names.
import { max } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { createLinePlot } from '../figures/line-plot.js';
import { element } from '../dom.js';
import { t } from '../i18n/index.js';
import { formatNumber } from '../format.js';
import { figureCell } from '../sections/shared/frame.js';
import { createModelPlayer } from './model-run.js';
import { createRunTimeline } from './run-timeline.js';
import { trainingThread } from './off-thread-training.js';
import { createRunComparison } from './run-comparison.js';
import { msPerStepOf, stepsToReach } from './kept-runs.js';

// While a run plays, the maps are redrawn at most every MAPS_EVERY_MS.
const MAPS_EVERY_MS = 100;
// A loss past this many times the run's first has climbed, not wobbled: the
// steps overshoot (a finite loss of thousands never "diverges").
export const RISE_FACTOR = 10;
// Steps trained and thrown away in idle time, WARM_UP_CHUNK at a time, so
// the browser has optimised the training code before the first frame of play.
const WARM_UP_STEPS = 30;
const WARM_UP_CHUNK = 3;

// Whether a run's held-out accuracy has plateaued: the last
// `evaluations` evaluations within `within` of each other.
export function plateaued(accuracy, { evaluations, within }) {
  if (accuracy.length < evaluations) return false;
  const last = accuracy.slice(-evaluations);
  return Math.max(...last) - Math.min(...last) <= within;
}

// `mapsContent`: the section's nodes of the maps' cell (above the timeline);
// `plateau`: { evaluations, within }, for a run that pauses by itself once
// its held-out accuracy has plateaued (keys.status.plateau says so; Play
// goes on to the end), or null; `keep`: { inputs(), keptMap(ahead) }, the
// live run's settings and the map kept of a forward pass, for "Keep this
// run" and the comparison (run-comparison.js); `offThreadMs`: the least
// training time of a chunk off the page's thread (model-run.js).
export function createRunView({
  id, name, frame, controls, keys, train, warmUp, maps, mapsContent, plateau = null, keep, offThreadMs = undefined,
}) {
  let start = null; // the model the run on screen starts from; null when there is none

  // --- Controls (the section places them in its panel: `controlNodes`) ---
  const playButton = controls.button({ labelKey: 'player.play', className: 'button button-primary', action: `${name}-play`, onClick: () => (player.state.status === 'playing' ? player.pause() : player.play()) });
  const stepButton = controls.button({ labelKey: 'player.step', action: `${name}-step`, onClick: () => player.step() });
  const resetButton = controls.button({ labelKey: 'player.reset', action: `${name}-reset`, onClick: () => start !== null && restart(start, player.state.target) });
  const status = element('p', { className: 'player-status', 'aria-live': 'polite', dataset: { role: `${name}-status` } });
  const progress = element('progress', { className: 'player-progress', max: 1, value: 0, 'aria-labelledby': `${name}-progress-label` });
  const progressLabel = element('span', { className: 'visually-hidden', id: `${name}-progress-label`, dataset: { i18n: keys.progress } });
  const readout = (role, labelKey) => {
    const value = element('output', { className: 'big-number', dataset: { role } });
    const cell = element('div', { className: 'readout-cell' }, [element('span', { className: 'readout-label', dataset: { i18n: labelKey } }), value]);
    return { cell, value };
  };
  const stepReadout = readout(`${name}-step`, keys.step);
  const lossReadout = readout(`${name}-loss`, keys.loss);
  const accuracyReadout = readout(`${name}-accuracy`, keys.accuracy);
  const accuracyStep = element('span', { className: 'small-number', dataset: { role: `${name}-accuracy-step` } });
  accuracyReadout.cell.append(accuracyStep);
  // A run whose core reports the held-out BLEU (keys.bleu) shows it too, as a read-out and a curve.
  const bleuReadout = keys.bleu ? readout(`${name}-bleu`, keys.bleu) : null;
  // A run that diverged: where it stopped, and what to change (beside the player).
  const divergedNote = element('p', { className: 'note note-warning', role: 'alert', dataset: { role: `${name}-diverged` } });
  divergedNote.hidden = true;
  // A run whose loss rose far above its start (keys.risen, for a section that has the text).
  const risenNote = element('p', { className: 'note note-warning', role: 'alert', dataset: { role: `${name}-risen` } });
  risenNote.hidden = true;
  const controlNodes = [
    element('div', { className: 'player' }, [resetButton, playButton, stepButton]),
    status,
    divergedNote,
    risenNote,
    progressLabel,
    progress,
    element('div', { className: `readouts readouts-${bleuReadout ? 4 : 3}` }, [stepReadout.cell, lossReadout.cell, accuracyReadout.cell, ...(bleuReadout ? [bleuReadout.cell] : [])]),
  ];

  // --- Loss per step and held-out accuracy per evaluation ---
  const curves = element('div', { className: 'figure-grid' });
  frame.figures.append(curves);
  const lossPlot = createLinePlot(figureCell(curves, { captionKey: keys.lossCaption }), {
    xDomain: [1, 2000], yDomain: [0, 3], layers: ['loss', 'cursor'], labels: { x: keys.axisStep, y: 'axis.loss' },
    ariaKey: keys.lossLabel, aspect: 0.62, maxHeight: 300,
  });
  lossPlot.element.dataset.figure = `${name}-loss`;
  const accuracyPlot = createLinePlot(figureCell(curves, { captionKey: keys.accuracyCaption }), {
    xDomain: [0, 2000], yDomain: [0, 1], layers: ['accuracy', 'accuracyDots', ...(bleuReadout ? ['bleu'] : []), 'cursor'], labels: { x: keys.axisStep, y: keys.axisAccuracy },
    ariaKey: keys.accuracyLabel, aspect: 0.62, maxHeight: 300,
  });
  accuracyPlot.element.dataset.figure = `${name}-accuracy`;

  // --- The maps' cell, and the run's timeline: the maps recorded as it played, to scrub through after it ---
  const mapsBody = figureCell(frame.figures, { captionKey: keys.mapsCaption, className: 'cell-heads' });
  const timeline = createRunTimeline();
  const timelineSlider = element('input', {
    type: 'range', className: 'timeline-slider', min: 0, max: 0, step: 1, value: 0, id: `${name}-timeline`,
    dataset: { role: `${name}-timeline` },
  });
  const timelineStep = element('output', { className: 'small-number', for: `${name}-timeline`, dataset: { role: `${name}-timeline-step` } });
  const timelineRow = element('div', { className: `${name}-timeline` }, [
    element('label', { className: 'control-label', for: `${name}-timeline`, dataset: { i18n: keys.timeline } }),
    element('div', { className: 'control-row' }, [timelineSlider, timelineStep]),
    element('span', { className: 'control-hint', dataset: { i18n: keys.timelineHint } }),
  ]);
  timelineSlider.addEventListener('input', () => scrubTo(Number(timelineSlider.value)));
  mapsBody.append(...mapsContent, timelineRow);

  // --- Kept runs beside this one ---
  const comparison = createRunComparison({
    sectionId: id, name, frame, controls, settingsRoot: () => frame.root, inputs: keep.inputs, keptMap: keep.keptMap,
  });
  controlNodes.push(...comparison.controlNodes);

  // --- The run ---
  const player = createModelPlayer({
    stepsPerSecond: Infinity, // set by the section at every reset
    train, offThreadMs,
    onChange: (run) => drawRun(run),
    // Each frame's training and drawing as one User Timing entry (the
    // latest only: a PerformanceObserver sees them all), for the tests.
    onFrame({ started, trained, ended, steps }) {
      performance.clearMeasures(`attention-lab:${id}:frame`);
      performance.measure(`attention-lab:${id}:frame`, {
        start: started, end: ended, detail: { steps, trainMs: trained - started, drawMs: ended - trained },
      });
    },
  });
  const currentModel = () => player.state.model ?? start;

  // Called with the run each time it rests (paused, stepped, done, stopped,
  // or set anew), once its maps are drawn.
  const restListeners = new Set();
  let autoplaying = false; // each run set plays at once (the teacher's answer key)

  /** @param {import('./model-run.js').ModelRunState} run */
  function drawRun(run) {
    if (start === null) return;
    // Where it trains: 'worker' or 'page' (off-thread-training.js), once it has.
    status.dataset.thread = trainingThread() ?? '';
    if (run.step === 0) pausedAtPlateau = null;
    // Once a run: the pause redraws the run (paused) before this returns.
    if (plateau && run.status === 'playing' && pausedAtPlateau === null && run.lastChunk > 0
      && run.evaluatedAt.at(-1) === run.step && plateaued(run.accuracy, plateau)) {
      pausedAtPlateau = run.step;
      player.pause();
      return;
    }
    const model = run.model ?? start;
    const recorded = recordMoment(run, model);

    // Play after the end plays the run again from its start: it says so.
    playButton.dataset.i18n = { playing: 'player.pause', done: 'player.playAgain', stopped: 'player.playAgain' }[run.status] ?? 'player.play';
    playButton.textContent = t(playButton.dataset.i18n);
    stepButton.disabled = run.status === 'done' || run.status === 'stopped';
    status.dataset.status = run.status;
    const atPlateau = run.status === 'paused' && pausedAtPlateau === run.step;
    status.toggleAttribute('data-plateau', atPlateau);
    status.textContent = atPlateau
      ? t(keys.status.plateau, {
        step: run.step, steps: run.target, accuracy: formatNumber(run.heldOut * 100, '.1f'),
        span: (plateau.evaluations - 1) * (run.evaluatedAt.at(-1) - run.evaluatedAt.at(-2)),
      })
      : t(keys.status[run.status], { step: run.step, steps: run.target });
    divergedNote.hidden = run.status !== 'stopped';
    divergedNote.textContent = run.status === 'stopped' ? t(keys.diverged, { step: run.step }) : '';
    const peak = run.losses.length > 0 ? max(run.losses) : NaN;
    const risen = Boolean(keys.risen) && run.status !== 'stopped' && peak > RISE_FACTOR * run.losses[0];
    risenNote.hidden = !risen;
    risenNote.textContent = risen ? t(keys.risen, {
      start: formatNumber(run.losses[0], '.4~g'), peak: formatNumber(peak, '.4~g'), step: run.losses.indexOf(peak) + 1,
    }) : '';
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
    accuracyStep.textContent = accuracy === null ? '' : t(keys.accuracyAt, { step: run.evaluatedAt[run.evaluatedAt.length - 1] });
    if (bleuReadout) {
      const bleu = run.heldOutBleu;
      bleuReadout.value.textContent = bleu === null ? '—' : formatNumber(bleu, '.3f');
      bleuReadout.value.dataset.value = bleu === null ? '' : String(bleu);
    }

    const steps = Float64Array.from(run.losses, (_, i) => i + 1);
    lossPlot.setDomains({
      x: [1, Math.max(2, run.target)],
      y: scaleLinear().domain([0, max(run.losses) ?? 3]).nice().domain(),
    });
    lossPlot.set('loss', { kind: 'line', xs: steps, ys: run.losses, className: 'loss' });
    accuracyPlot.setDomains({ x: [0, Math.max(1, run.target)] });
    accuracyPlot.set('accuracy', { kind: 'line', xs: run.evaluatedAt, ys: run.accuracy, className: 'accuracy' });
    accuracyPlot.set('accuracyDots', { kind: 'dots', xs: run.evaluatedAt, ys: run.accuracy, className: 'accuracy-dot', r: run.target > 2000 ? 0 : 2.5 });
    if (bleuReadout) accuracyPlot.set('bleu', { kind: 'line', xs: run.evaluatedAt, ys: run.bleu, className: 'bleu' });
    lossPlot.element.dataset.steps = String(run.losses.length);
    accuracyPlot.element.dataset.evaluations = String(run.accuracy.length);
    showTimeline(run);

    // While the run plays, the maps are redrawn a few at a time (the section's
    // draw, with `partial`), and not in a frame that evaluated the held-out
    // set: with many heads, all at once would cost more than the frame's
    // budget. Paused or done, they are drawn at once. Playing, that is
    // MAPS_EVERY_MS apart at most (the examples' predictions too). The frame
    // that ends a run has trained too: its full drawing waits for the next frame.
    const playing = run.status === 'playing';
    if (playing !== wasPlaying) frame.sheet?.followRun(playing, mapsBody.parentElement);
    const evaluatedNow = run.lastChunk > 0 && run.evaluatedAt[run.evaluatedAt.length - 1] === run.step;
    const now = performance.now();
    if (finalFrame) cancelAnimationFrame(finalFrame);
    finalFrame = 0;
    if ((run.status === 'done' || run.status === 'stopped') && wasPlaying) {
      comparison.showRun(run);
      finalFrame = requestAnimationFrame(() => {
        finalFrame = 0;
        if (start === null) return;
        comparison.showRun(player.state, drawModel(currentModel()));
        rested(player.state);
      });
    } else if (!playing || (!evaluatedNow && now - lastMaps >= MAPS_EVERY_MS)) {
      const drawn = drawModel(model, playing, recorded);
      lastMaps = now;
      comparison.showRun(run, playing ? undefined : drawn);
      if (!playing) rested(run);
    } else {
      comparison.showRun(run);
    }
    wasPlaying = playing;
  }
  // Its maps drawn, a run at rest is told to the listeners.
  const rested = (run) => {
    for (const listener of restListeners) listener(run);
  };
  let lastMaps = 0;
  let wasPlaying = false;
  let pausedAtPlateau = null; // the step where this run paused by itself, once
  let finalFrame = 0;

  // The forward pass of the model the run has reached, kept in the timeline
  // when it is due, and wherever the run rests (paused, by itself or by the
  // learner, stepped, or at its end): the step on screen is one the slider
  // can come back to. Returned when it was made.
  function recordMoment(run, model) {
    if (run.step === 0 || (timeline.lastStep !== null && run.step < timeline.lastStep)) timeline.reset(run.target);
    const resting = run.status !== 'playing';
    if (!timeline.due(run.step) && !(resting && timeline.lastStep !== run.step)) return null;
    const ahead = maps.forward(model);
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
    timelineStep.textContent = moment ? t(keys.timelineStep, { step: moment.step }) : '';
    // A screen reader announces the step, not the moment's index.
    if (moment) timelineSlider.setAttribute('aria-valuetext', timelineStep.textContent);
    else timelineSlider.removeAttribute('aria-valuetext');
    timelineStep.dataset.step = moment ? String(moment.step) : '';
    const rule = scrubbed === null ? null : { kind: 'rule', x: moment.step, className: 'timeline-cursor' };
    lossPlot.set('cursor', rule);
    accuracyPlot.set('cursor', rule);
  }

  // Back to a recorded moment of the run: its maps and predictions, and a
  // cursor at its step on the curves. The last moment is the run as it is.
  function scrubTo(index) {
    if (start === null || player.state.status === 'playing') return;
    scrubbed = index >= timeline.length - 1 ? null : index;
    showTimeline(player.state);
    const moment = timeline.at(index);
    if (moment) maps.draw(moment, { partial: false, model: null });
  }

  // A model's maps (`ahead`: its forward pass, when it was just made); returns the pass drawn (null: refused).
  function drawModel(model, partial = false, ahead = null) {
    const made = ahead ?? maps.forward(model);
    if (made) maps.draw(made, { partial, model });
    return made ?? null;
  }

  // A page's first training calls run code the browser has not optimised
  // yet (it compiles wasm functions on first use, then again, faster, once
  // they are hot): the first frames of play ran long (20-35 ms for one or
  // two steps). So in idle time after the run is set, WARM_UP_STEPS
  // steps are trained a few at a time and thrown away.
  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 0));
  const cancelIdle = globalThis.cancelIdleCallback ?? clearTimeout;
  let warmUpTask = 0;
  let warmUpLeft = WARM_UP_STEPS;
  function scheduleWarmUp() {
    if (warmUpLeft <= 0 || warmUpTask) return;
    warmUpTask = idle(() => {
      warmUpTask = 0;
      if (start === null || player.state.status === 'playing') return; // playing warms it anyway
      const steps = Math.min(WARM_UP_CHUNK, warmUpLeft);
      warmUpLeft -= steps;
      // A refused model says so when it is played.
      const refused = () => {
        warmUpLeft = 0;
      };
      try {
        Promise.resolve(warmUp(start, steps)).catch(refused);
      } catch {
        refused();
      }
      scheduleWarmUp();
    });
  }

  // A new run of `steps` steps from `model0` (the section's new settings, or
  // Reset): the run as it is on screen, nothing recorded, not a past moment.
  function restart(model0, steps) {
    start = model0;
    scrubbed = null;
    pausedAtPlateau = null;
    timeline.reset(steps);
    player.reset(model0, steps);
    if (autoplaying) player.play();
    else scheduleWarmUp();
  }

  return {
    controlNodes,
    reset: restart,
    setTarget: (steps) => player.setTarget(steps),
    setSpeed: (stepsPerSecond) => player.setSpeed(stepsPerSecond),
    // The run as it is, written again (a language switch re-labels it; the kept runs follow new settings).
    redraw() {
      comparison.relabel();
      drawRun(player.state);
    },
    // The runs kept to compare (kept-runs.js).
    keptRuns: () => comparison.kept(),
    // The maps of what is on screen: the moment scrubbed to, else the run's model.
    redrawMaps() {
      if (start === null) return;
      if (scrubbed !== null) maps.draw(timeline.at(scrubbed), { partial: false, model: null });
      else drawModel(currentModel());
    },
    // The maps of the run's model (what the section asks of a model, like a typed sequence, with them).
    drawModel() {
      if (start !== null) drawModel(currentModel());
    },
    // The run as it stands, read-only: the model it has reached (the start
    // before a step), the steps trained, its status and its last held-out
    // evaluation (the core's: accuracy, BLEU where reported, and the step
    // it was taken after; null before one), the step of its first
    // evaluation at 95 % or more (null: none yet), and its ms a step where
    // it trained (null before a timed step); null before a reset.
    current() {
      if (start === null) return null;
      const { step, status, heldOut, heldOutBleu = null, evaluatedAt, accuracy } = player.state;
      return {
        model: currentModel(), step, status, heldOut, heldOutBleu, evaluatedAt: evaluatedAt.at(-1) ?? null,
        stepsToGoal: stepsToReach(evaluatedAt, accuracy), msPerStep: msPerStepOf(player.state),
      };
    },
    // From now on each run set plays at once, the one set now too, and
    // onRest(run) is called each time it rests: for the teacher's answer
    // key, whose answers read the model a learner's Play trains.
    autoplay(onRest) {
      restListeners.add(onRest);
      autoplaying = true;
      if (start !== null && player.state.status === 'ready') player.play();
    },
    // The section is going away: the run stops, no frame or idle task stays pending.
    dispose() {
      restListeners.clear();
      player.dispose();
      if (finalFrame) cancelAnimationFrame(finalFrame);
      finalFrame = 0;
      if (warmUpTask) cancelIdle(warmUpTask);
      warmUpTask = 0;
      start = null;
    },
  };
}
