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
import { parameters } from '../../state.js';
import { t } from '../../i18n/index.js';
import { describeError } from '../../section-errors.js';
import { setRichText } from '../../i18n/rich-text.js';
import { note } from '../shared/frame.js';
import { createTranslationMaps } from './maps.js';
import {
  createExamplePicker, createTrainedRun, createTypedInput, followInputs, showRowSteps, trainedViewParts,
} from '../shared/trained-model-view.js';
import { translationPytorch } from './pytorch.js';
import {
  EXAMPLES, modelConfig, recurrent, scoringSetting, stepsPerSecond, trainSteps, wordsOf, sentence, WORD_LANGUAGES, markLanguage,
} from './setup.js';
import { TRANSLATION_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';
import { offThread } from '../../run/off-thread-training.js';
import { positionLabels } from '../shared/axis-labels.js';

// The least training time of a chunk off the page's thread (run/model-run.js).
const TRANSLATION_OFF_THREAD_MS = 50;

const TASK_KEYS = {
  'numbers-en-zh': 'translation.task.numbersEnZh', 'numbers-zh-en': 'translation.task.numbersZhEn', dates: 'translation.task.dates',
  reverse: 'translation.task.reverse', sort: 'translation.task.sort',
};
const ARCHITECTURE_KEYS = { gru: 'translation.architecture.gru', bigru: 'translation.architecture.bigru', transformer: 'translation.architecture.transformer' };
const SCORING_KEYS = { additive: 'translation.scoring.additive', dot: 'translation.scoring.dot' };
const HEAD_SCORING_KEYS = { dot: 'translation.headScoring.dot', additive: 'translation.headScoring.additive' };
const OTHER_SCORING_NOTES = { trScoring: 'translation.explain.dot', trHeadScoring: 'translation.explain.additiveHeads' };
const CELL_KEYS = { gru: 'translation.cell.gru', lstm: 'translation.cell.lstm' };
const EXPLAIN_KEYS = { gru: 'translation.explain.gru', bigru: 'translation.explain.bigru', transformer: 'translation.explain.transformer' };
const TASK_NOTE_KEYS = {
  'numbers-en-zh': 'translation.taskNote.numbersEnZh', 'numbers-zh-en': 'translation.taskNote.numbersZhEn', dates: 'translation.taskNote.dates',
  reverse: 'translation.taskNote.reverse', sort: 'translation.taskNote.sort',
};
const TYPED_HINT_KEYS = {
  'numbers-en-zh': 'translation.typed.hint.numbersEnZh', 'numbers-zh-en': 'translation.typed.hint.numbersZhEn', dates: 'translation.typed.hint.dates',
  reverse: 'translation.typed.hint.digits', sort: 'translation.typed.hint.digits',
};
const PLACEHOLDER_KEYS = {
  'numbers-en-zh': 'translation.typed.placeholder.numbersEnZh', 'numbers-zh-en': 'translation.typed.placeholder.numbersZhEn',
  dates: 'translation.typed.placeholder.dates', reverse: 'translation.typed.placeholder.digits', sort: 'translation.typed.placeholder.digits',
};
// The run view's texts (run/run-view.js).
const RUN_KEYS = {
  status: {
    ready: 'translation.status.ready', playing: 'translation.status.playing', paused: 'translation.status.paused', done: 'translation.status.done',
    stopped: 'translation.status.stopped',
  },
  diverged: 'translation.diverged', risen: 'translation.risen', progress: 'translation.progress',
  step: 'translation.currentStep', loss: 'translation.currentLoss', accuracy: 'translation.currentAccuracy', accuracyAt: 'translation.accuracyAt',
  bleu: 'translation.currentBleu',
  axisStep: 'translation.axisStep', axisAccuracy: 'translation.axisAccuracy',
  lossCaption: 'translation.lossCaption', lossLabel: 'translation.lossLabel', accuracyCaption: 'translation.accuracyCaption', accuracyLabel: 'translation.accuracyLabel',
  mapsCaption: 'translation.mapsCaption', timeline: 'translation.timeline', timelineHint: 'translation.timelineHint', timelineStep: 'translation.timelineStep',
};

// The first layer's maps are the ones the exercises and the read-outs name.
// The target vocabulary's <bos>, the decoder's first input (seq2seqVocabulary: 0 <pad>, 1 <bos>, 2 <eos>).
const BOS = 1;

const shapeOf = (model) => (model.config.architecture === 'transformer'
  ? { blocks: model.config.blocks, heads: model.config.heads }
  : { blocks: 1, heads: 1 });

function create({ frame, controls, core, errors }) {
  const panel = frame.controlsPanel;
  // --- Notes: what the learner sees, for the architecture and the task ---
  // Named as a figure, in a box: an open prediction covers it, words included.
  const explainBox = element('div', { className: 'note-box', dataset: { figure: 'tr-explain' } });
  frame.figures.append(explainBox);
  const explainNote = note(explainBox, { className: 'note note-callout' });
  explainNote.dataset.role = 'tr-explain';
  const taskNote = note(frame.figures, { className: 'note note-muted' });
  taskNote.dataset.role = 'tr-task-note';

  // --- Examples: source -> reference, and the model's greedy translation ---
  const picker = createExamplePicker(frame.figures, {
    name: 'tr', count: EXAMPLES, captionKey: 'translation.examplesCaption',
    headKeys: ['translation.exampleShown', 'translation.exampleSource', 'translation.exampleTarget', 'translation.exampleTranslation'],
    cells: ['source', 'target', 'translation'], cellClass: 'words', tableClass: 'at-examples tr-examples',
    onChoose: () => trained.run.redrawMaps(),
  });

  // The learner's own source, translated greedily.
  const typedBox = createTypedInput(controls, {
    name: 'tr', labelKey: 'translation.typed.label', showKey: 'translation.typed.show', hintDataset: { role: 'tr-typed-hint' },
    resultName: 'translation', onShow: () => showTyped(),
  });
  picker.body.append(typedBox.node);

  // --- The run ---
  const maps = createTranslationMaps();
  const trained = createTrainedRun({
    id: 'translation', name: 'tr', frame, controls, keys: RUN_KEYS, maps,
    // Trained off the page's thread where a worker can run (run/off-thread-training.js).
    train: (model, steps) => errors.run(() => trainSteps(offThread(core), model, trained.context.inputs, steps), trained.context.inputs),
    // One step an idle task: a translator's step costs what a few of the encoder's do.
    warmUp: (model) => trainSteps(offThread(core), model, trained.context.inputs, 1),
    // Chunks of at least 50 ms off the thread: a translator's chunk costs about
    // a step's time to hand over and back, so 20 ms chunks of one step trained
    // at a quarter of the kernels' pace (tests/benchmarks/translate-pace).
    offThreadMs: TRANSLATION_OFF_THREAD_MS,
    forward: examplesForward, draw: drawAhead,
    keep: { inputs: () => trained.context?.inputs ?? null, keptMap: keptMapOf },
  });
  const { run } = trained;

  // --- Controls ---
  // Each architecture's scoring has its own control, standing only beside it.
  const scoringControls = {
    trScoring: controls.choiceControl('trScoring', { labelKey: 'translation.scoring', optionKeys: SCORING_KEYS }),
    trHeadScoring: controls.choiceControl('trHeadScoring', { labelKey: 'translation.headScoring', optionKeys: HEAD_SCORING_KEYS }),
  };
  // The recurrent translators' cell, standing only beside them.
  const cellControl = controls.choiceControl('trCell', { labelKey: 'translation.cell', optionKeys: CELL_KEYS });
  panel.append(
    controls.choiceControl('trTask', { labelKey: 'translation.task', optionKeys: TASK_KEYS }),
    controls.choiceControl('trArchitecture', { labelKey: 'translation.architecture', optionKeys: ARCHITECTURE_KEYS }),
    cellControl,
    ...Object.values(scoringControls),
    ...run.controlNodes,
    controls.numberControl('trSpeed', { labelKey: 'translation.speed', hintKey: 'translation.speedHint' }),
    controls.numberControl('trSteps', { labelKey: 'translation.steps' }),
    controls.numberControl('trSeed', { labelKey: 'translation.seed', hintKey: 'translation.seedHint', slider: false }),
    controls.nextSeedButton('trSeed', { labelKey: 'translation.newSeed', action: 'tr-new-seed' }),
  );

  // A model's forward pass (teacher forcing) and greedy translation of the
  // examples: what the maps and the table show, and what the timeline keeps.
  function examplesForward(model) {
    const { inputs, result: { examples } } = trained.context;
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

  // What a kept run keeps of its maps: the cross-attention of the first
  // pair (block 1, head 1 of the Transformer), target words down, source across.
  function keptMapOf(ahead) {
    const { examples, vocabulary, config } = trained.context.result;
    const T = config.targetLength;
    const S = config.sourceLength;
    return {
      rows: T, cols: S, values: ahead.weights.subarray(0, T * S),
      rowNames: positionLabels(wordsOf(examples.targetOut, 0, T, T, vocabulary.target), examples.targetLens[0], T),
      colNames: positionLabels(wordsOf(examples.source, 0, S, S, vocabulary.source), examples.sourceLens[0], S),
    };
  }

  function drawAhead(ahead, { partial, model }) {
    const { result } = trained.context;
    const { examples, vocabulary, config } = result;
    const S = config.sourceLength;
    const T = config.targetLength;
    picker.rows.forEach((row, item) => {
      const source = wordsOf(examples.source, item, S, examples.sourceLens[item], vocabulary.source);
      const target = wordsOf(examples.targetOut, item, T, examples.targetLens[item], vocabulary.target);
      const guess = wordsOf(ahead.tokens, item, T, ahead.lengths[item], vocabulary.target);
      const right = sentence(guess) === sentence(target) && guess.at(-1) === '<eos>';
      picker.markRow(item, t('translation.exampleChoose', { item: item + 1 }));
      Object.assign(row.row.dataset, { translation: sentence(guess), target: sentence(target), right: String(right) });
      const languages = WORD_LANGUAGES[trained.context.inputs.trTask];
      markLanguage(row.source, languages.source);
      markLanguage(row.target, languages.target);
      markLanguage(row.translation, languages.target);
      row.source.textContent = sentence(source);
      row.target.textContent = sentence(target);
      row.translation.textContent = sentence(guess) || '—';
      row.translation.className = `words ${right ? 'token-right' : 'token-wrong'}`;
    });

    let shown = picker.typedShown(model, typedForward);
    if (!shown) {
      const item = picker.item();
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
      maps.setTitle(t('translation.mapsExample', {
        item: item + 1,
        source: sentence(shown.sourceWords.slice(0, shown.sourceLen)),
        target: sentence(shown.targetWords.slice(0, shown.targetLen)),
      }));
    }
    const typedShown = picker.selected === 'typed';
    maps.draw({ ...shown, languages: WORD_LANGUAGES[trained.context.inputs.trTask] }, { partial, typed: typedShown });
    // The row-steps panel on the pair the maps show: a held-out pair's
    // teacher-forced pass, as the maps draw it, or a typed source's greedy
    // translation fed back as the decoder's input (which is what greedy
    // decoding feeds it: the same rows as its map). A typed source's
    // numbers are for the model that translated it, the live one.
    const typedRow = shown.batch === 1;
    showRowSteps(trained, { model: typedRow ? shown.model : model, momentStep: ahead.step, playing: partial }, (live) => ({
      example: typedRow ? `typed ${shown.sourceWords.join(' ')} ${shown.targetWords.join(' ')}` : `${shown.item}`,
      compute: ({ block, head, query }) => core.seq2seqRowSteps(live, typedRow ? typedBatch(shown, config) : { ...examples, batch: EXAMPLES },
        { block, item: shown.item, head, query, attention: 'cross' }),
      blocks: shown.blocks, heads: shown.heads, queries: shown.targetWords.slice(0, shown.targetLen),
      keyNames: typedRow ? Array.from({ length: S }, (_, j) => shown.sourceWords[j] ?? '<pad>') : shown.sourceWords,
      blocked: null,
      playingKey: 'translation.stepsPlaying',
      // The GRU translators attend once: no blocks or heads to name.
      headName: config.architecture === 'transformer' ? undefined
        : () => t(config.scoring === 'dot' ? 'translation.stepsDotHead' : 'translation.stepsAdditiveHead'),
    }));
  }

  // The typed source through the current model: its greedy translation and its map.
  function typedForward(model) {
    const { config, vocabulary } = trained.context.result;
    let translation;
    try {
      translation = core.seq2seqTranslate(model, picker.typed.source, { maxLength: config.targetLength });
    } catch (error) {
      typedBox.refuse(describeError(error));
      return null;
    }
    const length = translation.lengths[0];
    const words = wordsOf(translation.tokens, 0, config.targetLength, length, vocabulary.target);
    const sourceWords = Array.from(picker.typed.source, (id) => vocabulary.source[id]);
    typedBox.showResult(t('translation.typed.result', { source: sentence(sourceWords), translation: sentence(words) || '—' }), sentence(words));
    maps.setTitle(t('translation.mapsTyped', { source: sentence(sourceWords), translation: sentence(words) || '—' }));
    const { blocks, heads } = shapeOf(model);
    return {
      model, tokens: translation.tokens.subarray(0, length), source: picker.typed.source,
      // The core pads the source to the model's length: its weights have sourceLength columns.
      cross: translation.crossWeights, self: null, blocks, heads, batch: 1, item: 0, rows: config.targetLength,
      cols: config.sourceLength, targetWords: words, selfKeyWords: [], sourceWords,
      targetLen: length, sourceLen: picker.typed.source.length, ideal: null,
    };
  }

  // A typed source and its greedy translation as a batch of one pair for
  // the teacher-forced pass: <bos> then the words the model wrote, as the
  // decoder read them while it wrote them.
  function typedBatch(shown, config) {
    const S = config.sourceLength;
    const T = config.targetLength;
    const source = new Int32Array(S);
    source.set(Array.from(shown.source).slice(0, S));
    const targetOut = new Int32Array(T);
    targetOut.set(shown.tokens.subarray(0, T));
    const targetIn = new Int32Array(T);
    targetIn[0] = BOS;
    targetIn.set(shown.tokens.subarray(0, T - 1), 1);
    return {
      source, sourceLens: Int32Array.of(shown.sourceLen), targetIn, targetOut, targetLens: Int32Array.of(shown.targetLen), batch: 1,
    };
  }

  function showTyped() {
    const { inputs } = trained.context;
    let source;
    try {
      source = core.seq2seqSourceFromText(inputs.trTask, typedBox.input.value);
    } catch (error) {
      typedBox.refuse(describeError(error));
      return;
    }
    typedBox.accept();
    picker.typed = { text: typedBox.input.value, source };
    picker.selected = 'typed';
    run.drawModel();
  }

  return {
    draw(result, inputs, changed) {
      trained.context = { inputs, result };
      // The settings the architecture reads: their controls stand, and a change of one (not of another) starts again.
      const setting = scoringSetting(inputs);
      const resetting = ['trTask', 'trArchitecture', setting, ...(recurrent(inputs) ? ['trCell'] : []), 'trSeed'];
      for (const [name, control] of Object.entries(scoringControls)) control.hidden = name !== setting;
      cellControl.hidden = !recurrent(inputs);
      // Each architecture's note is of its own cell and scoring (the settings' defaults): another has its own note.
      const lstm = recurrent(inputs) && inputs.trCell === 'lstm';
      const explainKey = lstm ? 'translation.explain.lstm'
        : inputs[setting] === parameters[setting].default ? EXPLAIN_KEYS[inputs.trArchitecture] : OTHER_SCORING_NOTES[setting];
      explainNote.dataset.i18nRich = explainKey;
      explainNote.dataset.architecture = inputs.trArchitecture;
      setRichText(explainNote, t(explainKey));
      taskNote.dataset.i18nRich = TASK_NOTE_KEYS[inputs.trTask];
      setRichText(taskNote, t(TASK_NOTE_KEYS[inputs.trTask]));
      typedBox.hint.dataset.i18n = TYPED_HINT_KEYS[inputs.trTask];
      typedBox.hint.textContent = t(TYPED_HINT_KEYS[inputs.trTask]);
      typedBox.input.placeholder = t(PLACEHOLDER_KEYS[inputs.trTask]);
      followInputs(trained, {
        inputs, changed, resetting, speedName: 'trSpeed', stepsName: 'trSteps', speed: stepsPerSecond(inputs), model0: result.model0,
        onReset: () => {
          // What the old model wrote goes with it: a typed source still
          // chosen is translated again by the new model as the run redraws.
          typedBox.clearResult();
          if (changed.has('trTask')) {
            // Another task's words: the typed source is read again by the next Show.
            picker.typed = null;
          }
          if (picker.selected === 'typed' && !picker.typed) picker.selected = 0;
        },
      });
    },
    ...trainedViewParts(trained),
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
  // After self-attention: attention between two sequences (d2l 10.4), trained,
  // where attention began, before the Transformer's parts.
  order: 100,
  book: {
    en: bookSubsection('bahdanau-attention', null, '11.4', 'The Bahdanau Attention Mechanism'),
    zh: bookSubsection('bahdanau-attention', null, '10.4', 'Bahdanau 注意力'),
  },
  corePart: 'models', // it trains a translator
  frame: { titleKey: 'translation.title', leadKeys: ['translation.lead1', 'translation.lead2'] },
  inputs: ['trTask', 'trArchitecture', 'trCell', 'trScoring', 'trHeadScoring', 'trSteps', 'trSpeed', 'trSeed'],
  arguments: {
    task: 'trTask', architecture: 'trArchitecture', bidirectional: 'trArchitecture', scoring: 'trScoring', steps: 'trSteps', seed: 'trSeed',
  },
  create,
  compute,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: translationPytorch,
  exercises: TRANSLATION_EXERCISES,
  teacherNoteKey: 'translation.ex.teacherNote',
};
