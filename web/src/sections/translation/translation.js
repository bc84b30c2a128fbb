// Attention between two sequences (d2l 10.4, 10.7): an encoder-decoder
// trained in the page on a toy translation (the core's seq2seq tasks:
// English number words to Chinese numerals and back, dates, reverse, sort),
// with d2l 10.4's one-directional GRU encoder, Bahdanau et al.'s
// bidirectional one, or d2l 10.7's Transformer. The run (Play, its curves,
// the maps' cell and timeline) is the run view's (run/run-view.js); this module
// brings the task and the model, the held-out examples with their greedy
// translations, the decoder's attention over the source of one of them
// (translation/maps.js) beside the task's ideal alignment, and a source the
// learner types, translated greedily with its map. Every number is the
// core's; words are the core's vocabulary.
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { describeError } from '../../section-errors.js';
import { setRichText } from '../../i18n/rich-text.js';
import { figureCell, note } from '../shared/frame.js';
import { createRunView } from '../../run/run-view.js';
import { createTranslationMaps } from './maps.js';
import { createRowStepsPanel } from '../shared/row-steps-panel.js';
import { translationPytorch } from './pytorch.js';
import {
  EXAMPLES, modelConfig, stepsPerSecond, trainSteps, wordsOf, sentence, WORD_LANGUAGES, markLanguage,
} from './setup.js';
import { TRANSLATION_EXERCISES } from './exercises.js';

const TASK_KEYS = {
  'numbers-en-zh': 'tr.task.numbersEnZh', 'numbers-zh-en': 'tr.task.numbersZhEn', dates: 'tr.task.dates',
  reverse: 'tr.task.reverse', sort: 'tr.task.sort',
};
const ARCHITECTURE_KEYS = { gru: 'tr.architecture.gru', bigru: 'tr.architecture.bigru', transformer: 'tr.architecture.transformer' };
const EXPLAIN_KEYS = { gru: 'tr.explain.gru', bigru: 'tr.explain.bigru', transformer: 'tr.explain.transformer' };
const TASK_NOTE_KEYS = {
  'numbers-en-zh': 'tr.taskNote.numbersEnZh', 'numbers-zh-en': 'tr.taskNote.numbersZhEn', dates: 'tr.taskNote.dates',
  reverse: 'tr.taskNote.reverse', sort: 'tr.taskNote.sort',
};
const TYPED_HINT_KEYS = {
  'numbers-en-zh': 'tr.typed.hint.numbersEnZh', 'numbers-zh-en': 'tr.typed.hint.numbersZhEn', dates: 'tr.typed.hint.dates',
  reverse: 'tr.typed.hint.digits', sort: 'tr.typed.hint.digits',
};
const PLACEHOLDER_KEYS = {
  'numbers-en-zh': 'tr.typed.placeholder.numbersEnZh', 'numbers-zh-en': 'tr.typed.placeholder.numbersZhEn',
  dates: 'tr.typed.placeholder.dates', reverse: 'tr.typed.placeholder.digits', sort: 'tr.typed.placeholder.digits',
};
// The run view's texts (run/run-view.js).
const RUN_KEYS = {
  status: {
    ready: 'tr.status.ready', playing: 'tr.status.playing', paused: 'tr.status.paused', done: 'tr.status.done',
    stopped: 'tr.status.stopped',
  },
  diverged: 'tr.diverged', risen: 'tr.risen', progress: 'tr.progress',
  step: 'tr.currentStep', loss: 'tr.currentLoss', accuracy: 'tr.currentAccuracy', accuracyAt: 'tr.accuracyAt',
  bleu: 'tr.currentBleu',
  axisStep: 'tr.axisStep', axisAccuracy: 'tr.axisAccuracy',
  lossCaption: 'tr.lossCaption', lossLabel: 'tr.lossLabel', accuracyCaption: 'tr.accuracyCaption', accuracyLabel: 'tr.accuracyLabel',
  mapsCaption: 'tr.mapsCaption', timeline: 'tr.timeline', timelineHint: 'tr.timelineHint', timelineStep: 'tr.timelineStep',
};

// The first layer's maps are the ones the exercises and the read-outs name.
const shapeOf = (model) => (model.config.architecture === 'transformer'
  ? { blocks: model.config.blocks, heads: model.config.heads }
  : { blocks: 1, heads: 1 });

function create({ frame, controls, core, errors }) {
  const panel = frame.controlsPanel;
  let context = null; // { inputs, result } of the run on screen
  let selected = 0; // the example drawn in the maps: 0 .. EXAMPLES - 1, or 'typed'
  let typed = null; // { text, source (Int32Array with <eos>) } of the learner's source

  // --- Notes: what the learner sees, for the architecture and the task ---
  // Named as a figure, in a box: an open prediction covers it, words included.
  const explainBox = element('div', { className: 'note-box', dataset: { figure: 'tr-explain' } });
  frame.figures.append(explainBox);
  const explainNote = note(explainBox, { className: 'note note-callout' });
  explainNote.dataset.role = 'tr-explain';
  const taskNote = note(frame.figures, { className: 'note note-muted' });
  taskNote.dataset.role = 'tr-task-note';

  // --- Examples: source -> reference, and the model's greedy translation ---
  const examplesBody = figureCell(frame.figures, { captionKey: 'tr.examplesCaption', className: 'cell-tr-examples' });
  const exampleRows = element('tbody');
  examplesBody.append(element('div', { className: 'log-scroll' }, [element('table', { className: 'at-examples tr-examples', dataset: { role: 'tr-examples' } }, [
    element('thead', {}, [element('tr', {}, [
      element('th', { scope: 'col', dataset: { i18n: 'tr.exampleShown' } }),
      element('th', { scope: 'col', dataset: { i18n: 'tr.exampleSource' } }),
      element('th', { scope: 'col', dataset: { i18n: 'tr.exampleTarget' } }),
      element('th', { scope: 'col', dataset: { i18n: 'tr.exampleTranslation' } }),
    ])]),
    exampleRows,
  ])]));
  const exampleRowsView = Array.from({ length: EXAMPLES }, (_, item) => {
    const choose = element('input', { type: 'radio', name: 'tr-example', value: String(item) });
    choose.addEventListener('change', () => {
      selected = item;
      run.redrawMaps();
    });
    const cells = { source: element('td', { className: 'words' }), target: element('td', { className: 'words' }), translation: element('td', { className: 'words' }) };
    const row = element('tr', { dataset: { item } }, [element('td', {}, [choose]), cells.source, cells.target, cells.translation]);
    exampleRows.append(row);
    return { row, choose, ...cells };
  });

  // The learner's own source, translated greedily.
  const typedInput = element('input', {
    type: 'text', className: 'text-input', id: 'tr-typed-input', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'tr-typed-hint', dataset: { role: 'tr-typed-input' },
  });
  const typedButton = controls.button({ labelKey: 'tr.typed.show', className: 'button', action: 'tr-typed-show', onClick: () => showTyped() });
  const typedMessage = element('p', { className: 'control-error', role: 'alert', dataset: { role: 'tr-typed-error' } });
  typedMessage.hidden = true;
  const typedResult = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'tr-typed-result' } });
  const typedHint = element('span', { className: 'control-hint', id: 'tr-typed-hint', dataset: { role: 'tr-typed-hint' } });
  typedInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      showTyped();
    }
  });
  examplesBody.append(element('div', { className: 'at-typed' }, [
    element('label', { className: 'control-label', for: 'tr-typed-input', dataset: { i18n: 'tr.typed.label' } }),
    element('div', { className: 'control-row' }, [typedInput, typedButton]),
    typedHint,
    typedMessage,
    typedResult,
  ]));

  // --- The run ---
  const maps = createTranslationMaps();
  // One row of the decoder's map taken apart: named as a figure, so a prediction that covers the maps covers it too.
  const rowSteps = createRowStepsPanel({ name: 'tr' });
  rowSteps.element.dataset.figure = 'tr-row-steps';
  const run = createRunView({
    id: 'translation', name: 'tr', frame, controls, keys: RUN_KEYS, mapsContent: [...maps.nodes, rowSteps.element],
    train: (model, steps) => errors.run(() => trainSteps(core, model, context.inputs, steps), context.inputs),
    // One step an idle task: a translator's step costs what a few of the encoder's do.
    warmUp: (model) => trainSteps(core, model, context.inputs, 1),
    maps: { forward: examplesForward, draw: drawAhead },
  });

  // --- Controls ---
  panel.append(
    controls.choiceControl('trTask', { labelKey: 'tr.task', optionKeys: TASK_KEYS }),
    controls.choiceControl('trArchitecture', { labelKey: 'tr.architecture', optionKeys: ARCHITECTURE_KEYS }),
    ...run.controlNodes,
    controls.numberControl('trSpeed', { labelKey: 'tr.speed', hintKey: 'tr.speedHint' }),
    controls.numberControl('trSteps', { labelKey: 'tr.steps' }),
    controls.numberControl('trSeed', { labelKey: 'tr.seed', hintKey: 'tr.seedHint', slider: false }),
    controls.nextSeedButton('trSeed', { labelKey: 'tr.newSeed', action: 'tr-new-seed' }),
  );

  // A model's forward pass (teacher forcing) and greedy translation of the
  // examples: what the maps and the table show, and what the timeline keeps.
  function examplesForward(model) {
    const { inputs, result: { examples } } = context;
    return errors.run(() => {
      const forward = core.seq2seqForward(model, { ...examples, batch: EXAMPLES });
      const translation = core.seq2seqTranslate(model, examples.source, {
        maxLength: model.config.targetLength, batch: EXAMPLES, sourceLens: examples.sourceLens,
      });
      return {
        weights: forward.crossWeights, self: forward.selfWeights, logits: forward.logits,
        tokens: translation.tokens, lengths: translation.lengths,
      };
    }, inputs);
  }

  function drawAhead(ahead, { partial, model }) {
    const { result } = context;
    const { examples, vocabulary, config } = result;
    const S = config.sourceLength;
    const T = config.targetLength;
    exampleRowsView.forEach((row, item) => {
      const source = wordsOf(examples.source, item, S, examples.sourceLens[item], vocabulary.source);
      const target = wordsOf(examples.targetOut, item, T, examples.targetLens[item], vocabulary.target);
      const guess = wordsOf(ahead.tokens, item, T, ahead.lengths[item], vocabulary.target);
      const right = sentence(guess) === sentence(target) && guess.at(-1) === '<eos>';
      row.choose.checked = selected === item;
      row.choose.setAttribute('aria-label', t('tr.exampleChoose', { item: item + 1 }));
      row.row.classList.toggle('is-selected', selected === item);
      Object.assign(row.row.dataset, { translation: sentence(guess), target: sentence(target), right: String(right) });
      const languages = WORD_LANGUAGES[context.inputs.trTask];
      markLanguage(row.source, languages.source);
      markLanguage(row.target, languages.target);
      markLanguage(row.translation, languages.target);
      row.source.textContent = sentence(source);
      row.target.textContent = sentence(target);
      row.translation.textContent = sentence(guess) || '—';
      row.translation.className = `words ${right ? 'token-right' : 'token-wrong'}`;
    });

    let shown = null;
    if (selected === 'typed' && typed && model) {
      shown = typedForward(model);
      if (!shown) {
        selected = 0;
        typed = null;
      }
    }
    if (!shown) {
      const item = selected === 'typed' ? 0 : selected;
      const { blocks, heads } = shapeOf({ config });
      shown = {
        cross: ahead.weights, self: ahead.self && ahead.self.length > 0 ? ahead.self : null, blocks, heads, batch: EXAMPLES, item,
        rows: T, cols: S,
        targetWords: wordsOf(examples.targetOut, item, T, T, vocabulary.target),
        selfKeyWords: wordsOf(examples.targetIn, item, T, T, vocabulary.target),
        sourceWords: wordsOf(examples.source, item, S, S, vocabulary.source),
        targetLen: examples.targetLens[item], sourceLen: examples.sourceLens[item],
        ideal: result.ideals[item],
      };
      maps.setTitle(t('tr.mapsExample', {
        item: item + 1,
        source: sentence(shown.sourceWords.slice(0, shown.sourceLen)),
        target: sentence(shown.targetWords.slice(0, shown.targetLen)),
      }));
    }
    maps.draw({ ...shown, languages: WORD_LANGUAGES[context.inputs.trTask] }, { partial, typed: selected === 'typed' });
    showRowSteps(shown, model, ahead.step, partial);
  }

  // The row-steps panel on the held-out pair the maps show (the
  // teacher-forced pass they draw). Its numbers are always a model's the
  // run holds: the model drawn, or for a moment of the timeline (which keeps
  // maps, not parameters) the run's current model, said so on screen. A
  // typed source's map comes from greedy decoding: not taken apart.
  function showRowSteps(shown, model, momentStep, playing) {
    const current = run.current();
    const live = model ?? current?.model;
    if (!live) return;
    const { examples } = context.result;
    rowSteps.update({
      model: live, example: `${shown.item} ${selected === 'typed'}`,
      compute: ({ block, head, query }) => core.seq2seqRowSteps(live, { ...examples, batch: EXAMPLES },
        { block, item: shown.item, head, query, attention: 'cross' }),
      blocks: shown.blocks, heads: shown.heads, queries: shown.targetWords.slice(0, shown.targetLen), keyNames: shown.sourceWords,
      liveStep: current?.step ?? 0, momentStep: model === null ? momentStep : undefined,
      blocked: selected === 'typed' ? t('steps.typedTranslation') : null,
    }, { frozen: playing });
  }

  // The typed source through the current model: its greedy translation and its map.
  function typedForward(model) {
    const { config, vocabulary } = context.result;
    let translation;
    try {
      translation = core.seq2seqTranslate(model, typed.source, { maxLength: config.targetLength });
    } catch (error) {
      typedMessage.textContent = describeError(error);
      typedMessage.hidden = false;
      typedResult.textContent = '';
      delete typedResult.dataset.translation;
      return null;
    }
    const length = translation.lengths[0];
    const words = wordsOf(translation.tokens, 0, config.targetLength, length, vocabulary.target);
    const sourceWords = Array.from(typed.source, (id) => vocabulary.source[id]);
    typedResult.textContent = t('tr.typed.result', { source: sentence(sourceWords), translation: sentence(words) || '—' });
    typedResult.dataset.translation = sentence(words);
    maps.setTitle(t('tr.mapsTyped', { source: sentence(sourceWords), translation: sentence(words) || '—' }));
    const { blocks, heads } = shapeOf(model);
    return {
      // The core pads the source to the model's length: its weights have sourceLength columns.
      cross: translation.crossWeights, self: null, blocks, heads, batch: 1, item: 0, rows: config.targetLength,
      cols: config.sourceLength, targetWords: words, selfKeyWords: [], sourceWords,
      targetLen: length, sourceLen: typed.source.length, ideal: null,
    };
  }

  function showTyped() {
    const { inputs } = context;
    let source;
    try {
      source = core.seq2seqSourceFromText(inputs.trTask, typedInput.value);
    } catch (error) {
      typedMessage.textContent = describeError(error);
      typedMessage.hidden = false;
      typedResult.textContent = '';
      delete typedResult.dataset.translation;
      return;
    }
    typedMessage.hidden = true;
    typedMessage.textContent = '';
    typed = { text: typedInput.value, source };
    selected = 'typed';
    run.drawModel();
  }

  const resetting = ['trTask', 'trArchitecture', 'trSeed'];

  return {
    draw(result, inputs, changed) {
      context = { inputs, result };
      explainNote.dataset.i18nRich = EXPLAIN_KEYS[inputs.trArchitecture];
      explainNote.dataset.architecture = inputs.trArchitecture;
      setRichText(explainNote, t(EXPLAIN_KEYS[inputs.trArchitecture]));
      taskNote.dataset.i18nRich = TASK_NOTE_KEYS[inputs.trTask];
      setRichText(taskNote, t(TASK_NOTE_KEYS[inputs.trTask]));
      typedHint.dataset.i18n = TYPED_HINT_KEYS[inputs.trTask];
      typedHint.textContent = t(TYPED_HINT_KEYS[inputs.trTask]);
      typedInput.placeholder = t(PLACEHOLDER_KEYS[inputs.trTask]);
      if (changed.has('language')) {
        maps.relabel();
        rowSteps.relabel();
      }
      if (changed.has('trSpeed') || resetting.some((name) => changed.has(name))) run.setSpeed(stepsPerSecond(inputs));
      if (resetting.some((name) => changed.has(name))) {
        if (changed.has('trTask')) {
          // Another task's words: the typed source is read again by the next Show.
          typed = null;
          typedResult.textContent = '';
          delete typedResult.dataset.translation;
        }
        if (selected === 'typed' && !typed) selected = 0;
        run.reset(result.model0, inputs.trSteps);
      } else if (changed.has('trSteps')) {
        run.setTarget(inputs.trSteps);
      } else {
        run.redraw();
      }
    },
    // Read-only, for the exercises: the model the run has reached, its step,
    // status and last held-out evaluation, and the inputs it trains for.
    trainedRun() {
      const current = context === null ? null : run.current();
      return current && { ...current, inputs: context.inputs };
    },
    // The row the row-steps panel takes apart (its core numbers), or null while it is closed.
    rowSteps: () => rowSteps.rowSteps(),
    dispose() {
      run.dispose();
      context = null;
      maps.forget();
      rowSteps.forget();
    },
  };
}

// The model's first state, the task's words and the held-out examples with
// their ideal alignments: cheap (the run trains on its own clock).
function compute(core, inputs) {
  const model0 = core.seq2seqInit(modelConfig(inputs));
  const vocabulary = core.seq2seqVocabulary(inputs.trTask);
  const examples = core.seq2seqHeldOut({ task: inputs.trTask, count: EXAMPLES });
  const ideals = Array.from({ length: EXAMPLES }, (_, item) => core.seq2seqTaskIdeal({ task: inputs.trTask, count: EXAMPLES }, item));
  return { model0, vocabulary, examples, ideals, config: model0.config };
}

export const translationSection = {
  id: 'translation',
  needsModels: true, // it trains a translator: the core's models part
  frame: { titleKey: 'tr.title', leadKeys: ['tr.lead1', 'tr.lead2'] },
  inputs: ['trTask', 'trArchitecture', 'trSteps', 'trSpeed', 'trSeed'],
  arguments: { task: 'trTask', architecture: 'trArchitecture', bidirectional: 'trArchitecture', steps: 'trSteps', seed: 'trSeed' },
  create,
  compute,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: translationPytorch,
  exercises: TRANSLATION_EXERCISES,
  teacherNoteKey: 'tr.ex.teacherNote',
};
