// The book's "what if" comparisons, over five seeds: each pair (or triple)
// of variants a what-if exercise races, trained as the page trains them (its
// sections' own recipes: attention-training/setup.js and translation/setup.js),
// through the public JS API in Node (dist/attention-core.mjs). A report, not
// a timed test: per variant and seed it prints the held-out accuracy at the
// end, the step of the first evaluation at 95 % or more, the ms per step on
// this machine (wall clock, training calls only) and the core's alignment
// measure of the trained model; then the medians over the seeds.
//
//   - attention-training, reverse (d2l 10.6, exercise 2, and self-attention
//     without positions): Positions sinusoidal, learned and none;
//     alignment: the share of block 1's rows (every head, 64 held-out
//     sequences) whose largest weight sits on reverse's key (the
//     learned-pattern reading of the section's exercise);
//   - translation, numbers-en-zh with the bidirectional GRU (d2l 10.4,
//     exercise 2): Scoring additive and dot; alignment: seq2seqAlignment's
//     mean on the 500 held-out pairs (block 1, head 1 for the Transformer);
//   - the same with the Transformer (d2l 10.7, exercise 2): its heads'
//     scoring dot and additive;
//   - the bidirectional translator's cell (d2l 10.4, exercise 1): GRU and LSTM.
//
// Usage: node tests/benchmarks/what-if.bench.mjs [--dist dist/attention-core.mjs] [--seeds 5]
//          [--comparisons positions,scoring,head-scoring,cell] [--at-steps 1000] [--tr-steps 600]
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultState } from '../../web/src/state.js';
import * as attentionSetup from '../../web/src/sections/attention-training/setup.js';
import * as translationSetup from '../../web/src/sections/translation/setup.js';
import { stepsToReach } from '../../web/src/run/kept-runs.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(here, '../../dist/attention-core.mjs') },
    seeds: { type: 'string', default: '5' },
    comparisons: { type: 'string', default: 'positions,scoring,head-scoring,cell' },
    'at-steps': { type: 'string', default: '1000' },
    'tr-steps': { type: 'string', default: '600' },
  },
});
const { loadAttentionCore } = await import(pathToFileURL(path.resolve(args.dist)).href);
const core = await loadAttentionCore();
const seeds = Array.from({ length: Number(args.seeds) }, (_, seed) => seed);

// Trains `steps` steps in calls of `chunk` (the core bounds a call's work),
// as the page's runs train: the held-out curve, the model and the ms the calls took.
function trained(init, train, steps, chunk) {
  let model = init();
  const evaluatedAt = [];
  const accuracy = [];
  let ms = 0;
  for (let done = 0; done < steps; done += chunk) {
    const started = performance.now();
    const part = train(model, Math.min(chunk, steps - done));
    ms += performance.now() - started;
    model = part.model;
    evaluatedAt.push(...part.evaluatedAt);
    accuracy.push(...part.accuracy);
  }
  return { model, accuracy: accuracy.at(-1) ?? null, stepsToGoal: stepsToReach(evaluatedAt, accuracy), msPerStep: ms / steps };
}

// Reverse's key: query i of n reads key n - 1 - i.
function reverseShare(model, inputs) {
  const count = 64;
  const set = core.attentionTaskBatch({
    task: 'reverse', batch: count, length: model.config.length, vocab: model.config.vocab,
    seed: attentionSetup.exampleSeed(inputs.atSeed, core.defaults.heldOutSeedMix),
  });
  const { weights } = core.attentionModelForward(model, set.tokens, { batch: count });
  const n = model.config.length;
  const heads = model.config.heads;
  let on = 0;
  for (let item = 0; item < count; item += 1) {
    for (let head = 0; head < heads; head += 1) {
      const from = (item * heads + head) * n * n; // block 1
      for (let i = 0; i < n; i += 1) {
        const row = weights.subarray(from + i * n, from + (i + 1) * n);
        if (row.indexOf(Math.max(...row)) === n - 1 - i) on += 1;
      }
    }
  }
  return on / (count * heads * n);
}

// The translation section's run with `settings` over its defaults, as the page trains it.
function translationVariant(name, settings) {
  return {
    name,
    run(seed) {
      const inputs = { ...defaultState(), ...settings, trSeed: seed };
      const run = trained(() => core.seq2seqInit(translationSetup.modelConfig(inputs)),
        (model, steps) => core.seq2seqTrain(model, { ...translationSetup.trainingOptions(inputs, steps), evaluateAtEnd: false }),
        Number(args['tr-steps']), translationSetup.EVAL_EVERY);
      const { mean } = core.seq2seqAlignment(run.model, { task: inputs.trTask, count: 500 });
      return { ...run, alignment: mean[0] };
    },
  };
}

const COMPARISONS = {
  positions: {
    title: `attention-training, reverse, ${args['at-steps']} steps: Positions (d2l 10.6, exercise 2; and none)`,
    alignment: 'rows on reverse\'s key',
    variants: ['sinusoidal', 'learned', 'none'].map((positional) => ({
      name: positional,
      run(seed) {
        const inputs = { ...defaultState(), atPositional: positional, atSeed: seed };
        const run = trained(() => core.attentionModelInit(attentionSetup.modelConfig(inputs)),
          (model, steps) => core.attentionModelTrain(model, { ...attentionSetup.trainingOptions(inputs, steps), evaluateAtEnd: false }),
          Number(args['at-steps']), 200);
        return { ...run, alignment: reverseShare(run.model, inputs) };
      },
    })),
  },
  scoring: {
    title: `translation, numbers-en-zh, bidirectional GRU, ${args['tr-steps']} steps: Scoring (d2l 10.4, exercise 2)`,
    alignment: 'seq2seqAlignment on 500 held-out pairs',
    variants: ['additive', 'dot'].map((scoring) => translationVariant(scoring, { trScoring: scoring })),
  },
  cell: {
    title: `translation, numbers-en-zh, bidirectional encoder, ${args['tr-steps']} steps: Cell (d2l 10.4, exercise 1)`,
    alignment: 'seq2seqAlignment on 500 held-out pairs',
    variants: ['gru', 'lstm'].map((cell) => translationVariant(cell, { trCell: cell })),
  },
  'head-scoring': {
    title: `translation, numbers-en-zh, Transformer, ${args['tr-steps']} steps: Heads' scoring (d2l 10.7, exercise 2)`,
    alignment: 'seq2seqAlignment on 500 held-out pairs, block 1 head 1',
    variants: ['dot', 'additive'].map((scoring) => translationVariant(scoring, { trArchitecture: 'transformer', trHeadScoring: scoring })),
  },
};

const median = (values) => {
  const known = values.filter((value) => value !== null).sort((a, b) => a - b);
  if (known.length < values.length / 2) return null; // most did not get there
  const sorted = values.map((value) => (value === null ? Infinity : value)).sort((a, b) => a - b);
  const m = sorted.length >> 1;
  const middle = sorted.length % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
  return Number.isFinite(middle) ? middle : null;
};
const cell = (value, digits) => (value === null ? 'never' : value.toFixed(digits)).padStart(9);

console.log(`What-if comparisons: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
  `load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; seeds ${seeds.join(', ')}.`);
for (const name of args.comparisons.split(',')) {
  const comparison = COMPARISONS[name];
  if (!comparison) {
    console.error(`what-if bench: unknown comparison '${name}' (${Object.keys(COMPARISONS).join(', ')})`);
    process.exit(2);
  }
  console.log(`\n${comparison.title}; alignment: ${comparison.alignment}`);
  console.log(`${'variant'.padEnd(12)}${'seed'.padStart(5)}${'held-out'.padStart(9)}${'to 95 %'.padStart(9)}${'ms/step'.padStart(9)}${'align'.padStart(9)}`);
  for (const variant of comparison.variants) {
    const rows = seeds.map((seed) => ({ seed, ...variant.run(seed) }));
    for (const row of rows) {
      console.log(`${variant.name.padEnd(12)}${String(row.seed).padStart(5)}${cell(row.accuracy, 3)}${cell(row.stepsToGoal, 0)}` +
        `${cell(row.msPerStep, 2)}${cell(row.alignment, 3)}`);
    }
    const m = (key) => median(rows.map((row) => row[key]));
    console.log(`${variant.name.padEnd(12)}${'med'.padStart(5)}${cell(m('accuracy'), 3)}${cell(m('stepsToGoal'), 0)}` +
      `${cell(m('msPerStep'), 2)}${cell(m('alignment'), 3)}`);
  }
}
