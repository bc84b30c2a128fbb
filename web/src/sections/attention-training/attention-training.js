// Watch attention learn (d2l 10.7). A small Transformer encoder
// (the core's attentionModel*: embedding plus positions, the sinusoidal
// encoding of the section before, a learned table or none, then
// attention-only blocks or d2l's full encoder blocks, then a readout at every
// position) trains on a toy task (the core's attentionTask*: reverse, sort,
// shift, lookup) in chunks of optimiser steps (trainSteps), in a worker
// where one can run (run/off-thread-training.js). The run itself (Play, its curves, the maps'
// cell and timeline) is the run view's (run/run-view.js); this module declares
// the section and brings the task, the model's settings, the examples with
// their predictions, a sequence the learner types, every head's attention
// map of one example (attention-training/maps.js) beside the task's ideal
// pattern, the positions it adds as tables (positions-figure.js), and the
// switches that show what breaks: causal masking, variable
// lengths (padding), d2l's embedding scale. Every number is the core's
// (argmax of the logits to show a predicted token is display, not
// arithmetic on data).
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { describeError } from '../../section-errors.js';
import { setRichText } from '../../i18n/rich-text.js';
import { note } from '../shared/frame.js';
import { createModelMaps } from './maps.js';
import { createPositionsFigure } from './positions-figure.js';
import { positionLabels } from '../shared/axis-labels.js';
import {
  createExamplePicker, createTrainedRun, createTypedInput, followInputs, showRowSteps, trainedViewParts,
} from '../shared/trained-model-view.js';
import { AT_FULL_SPEED, AT_LENGTH, AT_VOCAB, offeredModelHeads } from '../../state.js';
import { attentionTrainingPytorch } from './pytorch.js';
import {
  EXAMPLES, EVAL_EVERY, HELD_OUT, blindToOrder, modelConfig, taskOptions, trainingOptions, exampleSeed,
} from './setup.js';
import { ATTENTION_TRAINING_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';
import { offThread } from '../../run/off-thread-training.js';

// Where they were first declared: the tests and scripts import them from here.
export {
  EXAMPLES, EVAL_EVERY, HELD_OUT, modelConfig, taskOptions, trainingOptions, exampleSeed,
};

const TASK_KEYS = { reverse: 'attention-training.task.reverse', sort: 'attention-training.task.sort', shift: 'attention-training.task.shift', lookup: 'attention-training.task.lookup' };
const EXPLAIN_KEYS = {
  reverse: 'attention-training.explain.reverse', sort: 'attention-training.explain.sort', shift: 'attention-training.explain.shift', lookup: 'attention-training.explain.lookup',
};
const OPTIMIZER_KEYS = { adam: 'attention-training.optimizer.adam', sgd: 'attention-training.optimizer.sgd' };
const POSITIONAL_KEYS = {
  sinusoidal: 'attention-training.positional.sinusoidal', learned: 'attention-training.positional.learned',
  none: 'attention-training.positional.none',
};
// The run view's texts (run/run-view.js).
const RUN_KEYS = {
  status: {
    ready: 'attention-training.status.ready', playing: 'attention-training.status.playing', paused: 'attention-training.status.paused', done: 'attention-training.status.done',
    stopped: 'attention-training.status.stopped', plateau: 'attention-training.status.plateau',
  },
  diverged: 'attention-training.diverged', risen: 'attention-training.risen', progress: 'attention-training.progress',
  step: 'attention-training.currentStep', loss: 'attention-training.currentLoss', accuracy: 'attention-training.currentAccuracy', accuracyAt: 'attention-training.accuracyAt',
  axisStep: 'attention-training.axisStep', axisAccuracy: 'attention-training.axisAccuracy',
  lossCaption: 'attention-training.lossCaption', lossLabel: 'attention-training.lossLabel', accuracyCaption: 'attention-training.accuracyCaption', accuracyLabel: 'attention-training.accuracyLabel',
  mapsCaption: 'attention-training.mapsCaption', timeline: 'attention-training.timeline', timelineHint: 'attention-training.timelineHint', timelineStep: 'attention-training.timelineStep',
};

// A playing run pauses by itself once its held-out accuracy has stayed
// within half a point over four evaluations (150 steps): the maps have
// formed, and the default reverse run has nothing more to show
// (Play goes on).
export const PLATEAU = Object.freeze({ evaluations: 4, within: 0.005 });

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
  if (parts.length === 0) return { error: 'attention-training.typed.empty' };
  if (parts.length > AT_LENGTH) return { error: 'attention-training.typed.tooLong', count: parts.length };
  const bad = parts.find((part) => !/^\d{1,9}$/.test(part));
  if (bad !== undefined) return { error: 'attention-training.typed.notNumber', part: bad.slice(0, 12) };
  return { tokens: parts.map(Number) };
}

function create({ frame, controls, core, errors }) {
  const panel = frame.controlsPanel;

  // --- Figures ---
  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  const inputFormula = createFormula(formulas);
  createFormula(formulas).set('\\mathbf H_{b} = \\operatorname{MultiHead}(\\mathbf H_{b-1}, \\mathbf H_{b-1}, \\mathbf H_{b-1}),\\quad \\hat y_i = \\operatorname{argmax}\\,(\\mathbf H_{B}\\mathbf W_{\\text{out}}^\\top + \\mathbf b)_i');
  // Named as a figure: an open prediction of the pattern covers it (it
  // describes the pattern); a box around the note, so that the cover keeps
  // its words from screen readers too.
  const explainBox = element('div', { className: 'note-box', dataset: { figure: 'at-explain' } });
  frame.figures.append(explainBox);
  const explainNote = note(explainBox, { className: 'note note-callout' });
  explainNote.dataset.role = 'at-explain';
  const causalNote = note(frame.figures, { key: 'attention-training.causalNote', className: 'note note-warning' });
  causalNote.dataset.role = 'at-causal-note';
  const scaleNote = note(frame.figures, { key: 'attention-training.scaleNote', className: 'note note-warning' });
  scaleNote.dataset.role = 'at-scale-note';
  const positionsNote = note(frame.figures, { key: 'attention-training.positionsNote', className: 'note note-warning' });
  positionsNote.dataset.role = 'at-positions-note';
  const variableNote = note(frame.figures, { key: 'attention-training.variableNote', className: 'note note-muted' });
  variableNote.dataset.role = 'at-variable-note';

  // Examples: input -> target, and the model's prediction; one is drawn in the maps.
  const picker = createExamplePicker(frame.figures, {
    name: 'at', count: EXAMPLES, captionKey: 'attention-training.examplesCaption',
    headKeys: ['attention-training.exampleShown', 'attention-training.exampleInput', 'attention-training.exampleTarget', 'attention-training.examplePrediction'],
    cells: ['input', 'target', 'prediction'], cellClass: 'tokens', tableClass: 'at-examples',
    onChoose: () => trained.run.redrawMaps(),
  });

  // The learner's own sequence.
  const typedBox = createTypedInput(controls, {
    name: 'at', labelKey: 'attention-training.typed.label', showKey: 'attention-training.typed.show', hintDataset: { i18n: 'attention-training.typed.hint' },
    inputmode: 'numeric', resultName: 'prediction', onShow: () => showTyped(),
  });
  picker.body.append(typedBox.node);

  // --- The run: its controls, curves, and the maps' cell with its timeline ---
  const maps = createModelMaps();
  const trained = createTrainedRun({
    id: 'attention-training', name: 'at', frame, controls, keys: RUN_KEYS, maps,
    // Trained off the page's thread where a worker can run (run/off-thread-training.js).
    train: (model, steps) => errors.run(() => trainSteps(offThread(core), model, trained.context.inputs, steps), trained.context.inputs),
    warmUp: (model, steps) => trainSteps(offThread(core), model, trained.context.inputs, steps),
    forward: examplesForward, draw: drawAhead,
    plateau: PLATEAU,
    keep: { inputs: () => trained.context?.inputs ?? null, keptMap: keptMapOf },
  });
  const { run } = trained;
  const positions = createPositionsFigure(frame.figures);

  // --- Controls ---
  const lagControl = controls.numberControl('atLag', { labelKey: 'attention-training.lag', hintKey: 'attention-training.lagHint' });
  const headsControl = controls.numberControl('atHeads', { labelKey: 'attention-training.heads', slider: false });
  const headsHint = element('span', { className: 'control-hint', dataset: { role: 'at-divisors' } });
  headsControl.append(headsHint);
  const group = (key) => element('h3', { className: 'control-group-title', dataset: { i18n: key } });
  panel.append(
    controls.choiceControl('atTask', { labelKey: 'attention-training.task', optionKeys: TASK_KEYS }),
    lagControl,
    ...run.controlNodes,
    controls.numberControl('atSpeed', { labelKey: 'attention-training.speed', hintKey: 'attention-training.speedHint' }),
    controls.numberControl('atSteps', { labelKey: 'attention-training.steps' }),
    group('attention-training.modelGroup'),
    controls.numberControl('atHidden', { labelKey: 'attention-training.hidden' }),
    headsControl,
    controls.numberControl('atBlocks', { labelKey: 'attention-training.blocks' }),
    controls.numberControl('atFfn', { labelKey: 'attention-training.ffn', hintKey: 'attention-training.ffnHint' }),
    controls.choiceControl('atPositional', { labelKey: 'attention-training.positional', optionKeys: POSITIONAL_KEYS }),
    controls.toggleControl('atD2lScale', { labelKey: 'attention-training.d2lScale' }),
    group('attention-training.trainingGroup'),
    controls.choiceControl('atOptimizer', { labelKey: 'attention-training.optimizer', optionKeys: OPTIMIZER_KEYS }),
    controls.numberControl('atLr', { labelKey: 'attention-training.lr' }),
    controls.numberControl('atSeed', { labelKey: 'attention-training.seed', hintKey: 'attention-training.seedHint', slider: false }),
    controls.nextSeedButton('atSeed', { labelKey: 'attention-training.newSeed', action: 'at-new-seed' }),
    group('attention-training.masksGroup'),
    controls.toggleControl('atCausal', { labelKey: 'attention-training.causal' }),
    controls.toggleControl('atVariable', { labelKey: 'attention-training.variable' }),
  );

  // The forward pass of a model on the examples: predictions and maps, and
  // with learned positions the model's table (kept with a moment of the
  // run's timeline, as its maps are).
  function examplesForward(model) {
    const { inputs, result: { examples } } = trained.context;
    const validLens = inputs.atVariable ? examples.validLens : null;
    const ahead = errors.run(() => core.attentionModelForward(model, examples.tokens, { batch: EXAMPLES, validLens, causal: inputs.atCausal }), inputs);
    const learned = model.params.positional;
    if (ahead && learned) ahead.positions = { values: learned.slice(), step: model.optimizerState.step };
    return ahead;
  }

  // What a kept run keeps of its maps: block 1, head 1 of the first example.
  function keptMapOf(ahead) {
    const { examples } = trained.context.result;
    const names = positionLabels(examples.tokens.subarray(0, AT_LENGTH), examples.validLens[0], AT_LENGTH);
    return {
      rows: AT_LENGTH, cols: AT_LENGTH, values: ahead.weights.subarray(0, AT_LENGTH * AT_LENGTH), rowNames: names, colNames: names,
    };
  }

  // Predictions and maps from a forward pass on the examples; `model` for the
  // typed sequence (a recorded moment has none: its maps are the examples').
  function drawAhead(ahead, { partial, model }) {
    const { inputs, result } = trained.context;
    const { examples } = result;
    picker.rows.forEach((row, item) => {
      const validLen = examples.validLens[item];
      const slice = (array) => Array.from(array.subarray(item * AT_LENGTH, item * AT_LENGTH + validLen));
      const input = slice(examples.tokens);
      const target = slice(examples.targets);
      const guess = predicted(ahead.logits, item, validLen);
      picker.markRow(item, t('attention-training.exampleChoose', { item: item + 1 }));
      Object.assign(row.row.dataset, { prediction: guess.join(' '), target: target.join(' ') });
      row.input.textContent = input.join(' ');
      row.target.textContent = target.join(' ');
      row.prediction.replaceChildren(...guess.map((token, p) => element('span', {
        className: token === target[p] ? 'token-right' : 'token-wrong',
      }, [`${p > 0 ? ' ' : ''}${token}`])));
    });

    let shown = picker.typedShown(model, typedForward);
    if (!shown) {
      const item = picker.item();
      const validLen = examples.validLens[item];
      shown = {
        weights: ahead.weights, batch: EXAMPLES, item, validLen,
        tokens: Array.from(examples.tokens.subarray(item * AT_LENGTH, (item + 1) * AT_LENGTH)),
        ideal: result.ideals[item],
      };
      maps.setTitle(t('attention-training.mapsExample', { item: item + 1, tokens: shown.tokens.slice(0, validLen).join(' ') }));
    }
    maps.draw(shown, inputs, { partial, typed: picker.selected === 'typed' });
    positions.draw(result.sinusoidal, ahead.positions ?? null, inputs, AT_LENGTH);
    // The row-steps panel on the sequence the maps show.
    showRowSteps(trained, { model, momentStep: ahead.step, playing: partial }, (live) => {
      const typedRow = shown.batch === 1;
      const tokens = typedRow ? Int32Array.from(shown.tokens) : examples.tokens;
      const options = typedRow
        ? { batch: 1, validLens: shown.validLen < AT_LENGTH ? [shown.validLen] : null, causal: inputs.atCausal }
        : { batch: EXAMPLES, validLens: inputs.atVariable ? examples.validLens : null, causal: inputs.atCausal };
      const names = shown.tokens.map((token, p) => (p < shown.validLen ? String(token) : '·'));
      return {
        example: `${shown.item} ${names.join(' ')}`,
        compute: ({ block, head, query }) => core.attentionModelRowSteps(live, tokens, options, { block, item: shown.item, head, query }),
        blocks: live.config.blocks, heads: live.config.heads, queries: names.slice(0, shown.validLen), keyNames: names, blocked: null,
        playingKey: 'attention-training.stepsPlaying',
      };
    });
  }

  // The typed sequence through the current model: its prediction and maps.
  function typedForward(model) {
    const { tokens } = picker.typed;
    const padded = Int32Array.from({ length: AT_LENGTH }, (_, p) => (p < tokens.length ? tokens[p] : 0));
    let ahead;
    try {
      ahead = core.attentionModelForward(model, padded, {
        batch: 1, validLens: tokens.length < AT_LENGTH ? [tokens.length] : null, causal: trained.context.inputs.atCausal,
      });
    } catch (error) {
      typedBox.refuse(describeError(error));
      return null;
    }
    const guess = predicted(ahead.logits, 0, tokens.length);
    typedBox.showResult(t('attention-training.typed.result', { input: tokens.join(' '), prediction: guess.join(' ') }), guess.join(' '));
    maps.setTitle(t('attention-training.mapsTyped', { tokens: tokens.join(' ') }));
    return { weights: ahead.weights, batch: 1, item: 0, validLen: tokens.length, tokens: Array.from(padded), ideal: null };
  }

  function showTyped() {
    const parsed = parseSequence(typedBox.input.value);
    if (parsed.error) {
      typedBox.refuse(t(parsed.error, { count: parsed.count, most: AT_LENGTH, part: parsed.part }));
      return;
    }
    typedBox.accept();
    picker.typed = parsed;
    picker.selected = 'typed';
    run.drawModel();
  }

  // A change of task, model, optimiser, masks or seed starts the run again
  // from the same start; more or fewer steps only move its end.
  const resetting = ['atTask', 'atLag', 'atCausal', 'atVariable', 'atHidden', 'atHeads', 'atBlocks', 'atFfn', 'atD2lScale', 'atPositional', 'atOptimizer', 'atLr', 'atSeed'];

  return {
    draw(result, inputs, changed) {
      trained.context = { inputs, result };
      inputFormula.set(`\\mathbf H_0 = ${inputs.atD2lScale ? `\\sqrt{${inputs.atHidden}}\\,` : ''}\\operatorname{Embed}(\\text{tokens})${inputs.atPositional === 'none' ? '' : ' + \\mathbf P'}`);
      lagControl.classList.toggle('is-disabled', inputs.atTask !== 'shift');
      headsHint.textContent = t('attention-training.headsHint', { hidden: inputs.atHidden, list: offeredModelHeads(inputs.atHidden).join(', ') });
      // Named for the next language switch, written now (the page's first
      // translation ran before this draw).
      explainNote.dataset.i18nRich = EXPLAIN_KEYS[inputs.atTask];
      explainNote.dataset.task = inputs.atTask;
      setRichText(explainNote, t(EXPLAIN_KEYS[inputs.atTask]));
      typedBox.input.placeholder = t('attention-training.typed.placeholder');
      causalNote.hidden = !inputs.atCausal;
      scaleNote.hidden = !inputs.atD2lScale;
      positionsNote.hidden = !blindToOrder(inputs);
      variableNote.hidden = !inputs.atVariable;
      if (changed.has('language')) positions.relabel();
      followInputs(trained, {
        inputs, changed, resetting, speedName: 'atSpeed', stepsName: 'atSteps', speed: stepsPerSecond(inputs), model0: result.model0,
        onReset: () => {
          // What the old model predicted goes with it: a typed sequence still
          // chosen is predicted again by the new model as the run redraws.
          typedBox.clearResult();
          if (picker.selected !== 'typed') picker.selected = Math.min(Number(picker.selected), EXAMPLES - 1);
        },
      });
    },
    ...trainedViewParts(trained),
  };
}

// The model's first state and the examples, for the inputs: cheap (no
// training here; the run trains on its own clock).
function compute(core, inputs) {
  const model0 = core.attentionModelInit(modelConfig(inputs));
  const options = taskOptions(inputs, { batch: EXAMPLES, seed: exampleSeed(inputs.atSeed, core.defaults.heldOutSeedMix) });
  const examples = core.attentionTaskBatch(options);
  const ideals = Array.from({ length: EXAMPLES }, (_, item) => core.attentionTaskIdeal(options, item));
  return { model0, examples, ideals, sinusoidal: core.positionalEncoding(AT_LENGTH, inputs.atHidden) };
}

export const attentionTrainingSection = {
  id: 'attention-training',
  // Last: its model adds the positional encoding, which solves reverse alone.
  order: 130,
  book: {
    en: bookSubsection('transformer', 'encoder', '11.7.4', 'Encoder'),
    zh: bookSubsection('transformer', null, '10.7', 'Transformer'),
  },
  corePart: 'models', // it trains the encoder
  frame: { titleKey: 'attention-training.title', leadKeys: ['attention-training.lead1', 'attention-training.lead2'] },
  inputs: ['atTask', 'atLag', 'atCausal', 'atVariable', 'atHidden', 'atHeads', 'atBlocks', 'atFfn', 'atD2lScale', 'atPositional',
    'atOptimizer', 'atLr', 'atSteps', 'atSpeed', 'atSeed'],
  arguments: {
    task: 'atTask', lag: 'atLag', causal: 'atCausal', variableLengths: 'atVariable', hidden: 'atHidden',
    heads: 'atHeads', blocks: 'atBlocks', ffnHidden: 'atFfn', embeddingScale: 'atD2lScale', positional: 'atPositional', optimizer: 'atOptimizer',
    lr: 'atLr', steps: 'atSteps', seed: 'atSeed',
  },
  create,
  compute,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: attentionTrainingPytorch,
  exercises: ATTENTION_TRAINING_EXERCISES,
  teacherNoteKey: 'attention-training.ex.teacherNote',
};
