// The translators' work bound (maxTrainingWork, maxModelWork over the
// translators' counted work): the worst accepted calls, timed. For each
// family of configurations the largest accepted count (steps of
// seq2seqTrain, or the batch of seq2seqStep) is found by asking the core
// (a refusal costs nothing: it comes before any allocation), and that call
// is timed, wasm under Node through the public JS API. The docs promise
// about a second for every accepted call (docs/js-api.md, "Errors and
// limits"); attentionModelTrain at 1,000 default steps is printed beside
// them as the yardstick. A benchmark, not a timed test: it reports medians
// of --repetitions wall-clock runs and never fails on a missed budget.
//
// Usage: node tests/benchmarks/translator-work-bound.bench.mjs [--dist dist/attention-core.mjs] [--repetitions 3]
//          [--only <substring of a family's name>]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';

v8.setFlagsFromString('--no-liftoff'); // before the module is compiled: see bench.mjs

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(root, 'dist/attention-core.mjs') },
    repetitions: { type: 'string', default: '3' },
    only: { type: 'string', default: '' },
  },
});
const repetitions = Number(args.repetitions);
const { loadAttentionCore } = await import(pathToFileURL(path.resolve(args.dist)).href);
const core = await loadAttentionCore();

// seq2seqTrain, batch 1 unless given: the per-step and per-parameter costs weigh most there.
const lean = { batch: 1, heldOut: 1, evalEvery: 10000 };
const families = [
  { name: 'Bahdanau h512 e512 1 layer, batch 1', config: { hidden: 512, embed: 512, layers: 1 }, options: lean },
  { name: 'Bahdanau h256 e256 4 layers, batch 1', config: { hidden: 256, embed: 256, layers: 4 }, options: lean },
  { name: 'Bahdanau h512 e64 1 layer one-way, batch 1', config: { hidden: 512, embed: 64, layers: 1, bidirectional: false }, options: lean },
  { name: 'Bahdanau default, batch 1', config: {}, options: lean },
  { name: 'Bahdanau default, batch 64 (the page\'s)', config: {}, options: { batch: 64, heldOut: 1, evalEvery: 10000 } },
  { name: 'Bahdanau default, batch 64, held-out 500 every step', config: {}, options: { batch: 64, heldOut: 500, evalEvery: 1 } },
  { name: 'Bahdanau h128 e128 2 layers, batch 1024', config: { hidden: 128, embed: 128, layers: 2 }, options: { batch: 1024, heldOut: 1, evalEvery: 10000 } },
  { name: 'Transformer default, batch 1', config: { architecture: 'transformer' }, options: lean },
  { name: 'Transformer h256 ffn 1024 2 blocks, batch 1', config: { architecture: 'transformer', hidden: 256, heads: 8, ffnHidden: 1024, blocks: 2 }, options: lean },
  { name: 'Transformer default, batch 64', config: { architecture: 'transformer' }, options: { batch: 64, heldOut: 1, evalEvery: 10000 } },
].filter(({ name }) => name.includes(args.only));

// The work the core counts for a call it refuses ("... (this one: W)"), or
// null when it accepts it (then it has run).
function countedWork(call, argument) {
  try {
    call();
    return null;
  } catch (error) {
    const counted = /\(this one: (\d+)\)/.exec(error.message);
    if (error.argument !== argument || !counted) throw error;
    return Number(counted[1]);
  }
}

// The largest count in [1, high] whose call the core accepts: the counted
// work is affine in the count, so two refusals at the top give it (a
// refusal costs nothing: it comes before any allocation); high when it is accepted.
function largestAccepted(call, argument, high, limit) {
  const top = countedWork(() => call(high), argument);
  if (top === null) return high;
  const slope = top - countedWork(() => call(high - 1), argument);
  let count = Math.min(high - 1, Math.max(0, Math.floor((limit - (top - slope * high)) / slope)));
  // Where the count is not quite affine (a held-out evaluation every k steps), down to the first accepted.
  for (let work = count > 0 ? countedWork(() => call(count), argument) : null; work !== null;
    work = count > 0 ? countedWork(() => call(count), argument) : null) {
    count = Math.max(0, count - Math.max(1, Math.ceil((work - limit) / slope)));
  }
  return count;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function timed(call, what) {
  process.stderr.write(`timing ${what}\n`);
  const times = [];
  for (let i = 0; i < repetitions; i += 1) {
    const started = performance.now();
    call();
    times.push((performance.now() - started) / 1000);
  }
  return median(times);
}

// Each row printed as it is measured: call | count (steps or batch) | seconds (median).
console.log('call | count (steps or batch) | seconds (median)');
const rows = {
  push({ call, count, seconds }) {
    console.log(`${call} | ${count} | ${seconds.toFixed(2)}`);
  },
};
const yardstick = core.attentionModelInit({});
rows.push({ call: 'attentionModelTrain default, 1,000 steps (the yardstick)', count: 1000,
  seconds: timed(() => core.attentionModelTrain(yardstick, { steps: 1000 }), 'the yardstick') });
for (const { name, config, options } of families) {
  const model = core.seq2seqInit(config);
  const train = (steps) => core.seq2seqTrain(model, { ...options, steps });
  const steps = largestAccepted(train, 'steps', core.limits.maxTrainingSteps, core.limits.maxTrainingWork);
  rows.push({ call: `seq2seqTrain ${name}`, count: steps, seconds: steps > 0 ? timed(() => train(steps), `${name}: ${steps} steps`) : NaN });
}
for (const { name, config } of families.filter(({ options }) => options.batch === 1)) {
  const model = core.seq2seqInit(config);
  const batches = new Map();
  const batchOf = (n) => batches.get(n) ?? batches.set(n, core.seq2seqTaskBatch({ batch: n, seed: 1 })).get(n);
  const step = (n) => core.seq2seqStep(model, batchOf(n));
  const batch = largestAccepted(step, 'batch', core.limits.maxModelBatch, core.limits.maxModelWork);
  rows.push({ call: `seq2seqStep ${name.replace(', batch 1', '')}`, count: batch, seconds: batch > 0 ? timed(() => step(batch), `${name}: step of batch ${batch}`) : NaN });
}

