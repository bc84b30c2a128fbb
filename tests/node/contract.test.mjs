// The core's contract as the JS API exposes it: `limits` (core/contract/limits.hpp)
// and `defaults` (the C++ option structs), frozen; the limits are those of
// the table in docs/js-api.md ("Errors and limits") and the ones the calls
// enforce; the defaults are the book's and what a call without options does.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { api, assertArgumentError, assertSameBits, f64, fromHex, references } from './helpers.mjs';

const { limits, defaults } = api;

test('limits and defaults are frozen all the way down', () => {
  for (const value of [limits, defaults, ...Object.values(defaults).filter((v) => typeof v === 'object'),
    defaults.scalingStudy.dims, defaults.consistencyStudy.sizes]) {
    assert.ok(Object.isFrozen(value));
  }
  assert.throws(() => { limits.maxPoints = 1; }, TypeError); // modules are strict: no silent failure
  assert.throws(() => { defaults.dataset.n = 1; }, TypeError);
  assert.throws(() => { defaults.scalingStudy.dims.push(1024); }, TypeError);
  assert.equal(defaults.dataset.n, 50);
});

test('limits are the table of docs/js-api.md, key for key', () => {
  const page = readFileSync(new URL('../../docs/js-api.md', import.meta.url), 'utf8');
  // Rows of the limits table: | what | `key` | 10,000 ... |
  const documented = {};
  for (const [, key, value] of page.matchAll(/^\|[^|\n]*\| `(\w+)` \| ([\d,]+)[^|\n]*\|$/gm)) {
    documented[key] = Number(value.replaceAll(',', ''));
  }
  assert.deepEqual(documented, { ...limits });
  // The work bounds' table: | function | bound | `key` | 536,870,912 (2^29) |, each key a limit, with its value.
  const workRows = [...page.matchAll(/^\|[^|\n]*\|[^|\n]*\| `(\w+)` \| ([\d,]+)[^|\n]*\|$/gm)];
  assert.ok(workRows.length >= 8, 'the work bounds\' table');
  for (const [row, key, value] of workRows) {
    assert.ok(Object.hasOwn(limits, key), `${key} is a limit: ${row}`);
    assert.equal(Number(value.replaceAll(',', '')), limits[key], row);
  }
  // And the values the core was built with, as the book's lab documents them.
  assert.deepEqual({ ...limits }, {
    maxPoints: 10000, maxMatrixElements: 2 ** 24, maxDimension: 1024, maxBatch: 64, maxEpochs: 10000,
    maxSequence: 10000, maxX: 1000, maxNoise: 100, maxSeed: 2 ** 32 - 1, maxRandomMagnitude: 1e6,
    maxStudyDims: 64, maxStudySamples: 10000, maxStudyKeys: 1000, maxStudySizes: 64, maxStudyRepeats: 1000,
    maxStudyWidth: 1e6,
    maxWork: 2 ** 29, maxKernelEvaluations: 2 ** 28, maxTanhEvaluations: 2 ** 24, maxStudyDraws: 2 ** 24,
    maxVocab: 1024, maxModelLength: 256, maxHeads: 64, maxBlocks: 8, maxFfnHidden: 4096, maxModelBatch: 1024,
    maxModelParameters: 2 ** 22, maxModelActivations: 2 ** 24, maxModelWork: 2 ** 30, maxTrainingWork: 2 ** 32,
    maxEmbeddingScale: 1000, maxLearningRate: 1000, maxTrainingSteps: 10000,
  });
});

test('the TypeScript declarations name every limit, and no other', () => {
  const types = readFileSync(new URL('../../wasm/attention-core.d.ts', import.meta.url), 'utf8');
  const union = types.match(/export type LimitName =([^;]*);/);
  assert.ok(union, 'LimitName in attention-core.d.ts');
  const declared = [...union[1].matchAll(/'(\w+)'/g)].map(([, name]) => name);
  assert.deepEqual([...declared].sort(), Object.keys(limits).sort());
  assert.equal(new Set(declared).size, declared.length, 'each name once');
});

test('every limit is the one the calls enforce: at it the call works, just over it is refused', () => {
  const tinyModel = api.attentionModelInit({ vocab: 2, length: 2, hidden: 2, heads: 1 });
  const grid = (n) => Float64Array.from({ length: n }, (_, i) => (5 * i) / n);
  // [call at the limit, call just over it, the argument it names]
  const cases = {
    maxPoints: [(n) => api.truth(grid(n)), 'x'],
    maxMatrixElements: [(n) => api.randomNormal(n), 'count'],
    maxDimension: [(n) => api.positionalEncoding(2, n), 'dim'],
    maxBatch: [(n) => api.maskedSoftmax(new Float64Array(n), [n, 1, 1]), 'shape[0] (batch)'],
    maxEpochs: [(n) => api.trainKernelWidth([1, 2], [3, 5], { epochs: n, lr: 0.01 }), 'epochs'],
    maxSequence: [(n) => api.positionalEncoding(n, 2), 'maxLen'],
    maxX: [(v) => api.makeDataset({ n: 5, xMax: v }), 'xMax', 1],
    maxNoise: [(v) => api.makeDataset({ n: 5, noise: v }), 'noise', 1],
    maxSeed: [(v) => api.randomUniform(2, { seed: v }), 'seed'],
    maxRandomMagnitude: [(v) => api.randomNormal(2, { std: v }), 'std', 1],
    maxStudyDims: [(n) => api.scalingStudy({ dims: new Array(n).fill(1), samples: 2, keys: 1 }), 'dims.length'],
    maxStudySamples: [(n) => api.scalingStudy({ dims: [1], samples: n, keys: 1 }), 'samples'],
    maxStudyKeys: [(n) => api.scalingStudy({ dims: [1], samples: 2, keys: n }), 'keys'],
    maxStudySizes: [(n) => api.consistencyStudy({ sizes: new Array(n).fill(1), repeats: 1, queries: 2 }), 'sizes.length'],
    maxStudyRepeats: [(n) => api.consistencyStudy({ sizes: [2], repeats: n, queries: 2 }), 'repeats'],
    maxStudyWidth: [(v) => api.consistencyStudy({ sizes: [2], repeats: 1, queries: 2, w: v }), 'w', 1],
    maxVocab: [(n) => api.attentionModelInit({ vocab: n, hidden: 4, heads: 1 }), 'vocab'],
    maxModelLength: [(n) => api.attentionModelInit({ length: n, hidden: 4, heads: 1 }), 'length'],
    maxHeads: [(n) => api.attentionModelInit({ hidden: 64, heads: n }), 'heads'],
    maxBlocks: [(n) => api.attentionModelInit({ blocks: n, hidden: 4, heads: 1 }), 'blocks'],
    maxFfnHidden: [(n) => api.attentionModelInit({ ffnHidden: n, hidden: 4, heads: 1 }), 'ffnHidden'],
    maxModelBatch: [(n) => api.attentionTaskBatch({ batch: n, length: 2 }), 'batch'],
    maxEmbeddingScale: [(v) => api.attentionModelInit({ embeddingScale: v, hidden: 4, heads: 1 }), 'embeddingScale', 1],
    maxLearningRate: [(v) => api.attentionModelStep(tinyModel, [1, 0], [0, 1], { lr: v, optimizer: 'sgd' }), 'lr', 1],
    maxTrainingSteps: [(n) => api.attentionModelTrain(tinyModel, { steps: n, batch: 1, heldOut: 1, evalEvery: n }),
      'steps'],
  };
  // The work bounds: a call just over each is refused, naming the argument to change and quoting the bound
  // (at the bound a call takes about a second; tests/core checks the accepted side natively).
  const model = (config) => api.attentionModelInit({ vocab: 2, heads: 1, ...config });
  const wide = model({ length: 8, hidden: 512 }); // about 25 M multiply-adds a sequence's pass, few activations
  const long = model({ length: 256, hidden: 2 }); // many activations (batch x heads x length^2), little work
  const points = grid(8192);
  const overCases = {
    // 8192^2 x 5 kernel evaluations
    maxKernelEvaluations: [() => api.lossLandscape(points, points, new Float64Array(5).fill(1)), 'ws.length'],
    // 4096 x 4096 x 33 multiply-adds; the arrays are never read
    maxWork: [() => api.batchMatrixProduct([], [], { shapeX: [1, 4096, 4096], shapeY: [1, 4096, 33] }),
      'shapeY[2] (c)'],
    // 1024 x 1024 x 17 tanh evaluations
    maxTanhEvaluations: [() => api.additiveAttention({
      queries: [], keys: [], values: [], Wq: [], Wk: [], wv: [], validLens: null,
      shape: { batch: 1, nq: 1024, nk: 1024, dq: 1, dk: 1, dv: 1, h: 17 },
    }), 'shape.h'],
    // 8193 x 2 x 1024 normal draws
    maxStudyDraws: [() => api.scalingStudy({ dims: [1024], samples: 8193, keys: 1 }), 'samples'],
    // 4 x 1024^2 + 4 x 1024 + 2 parameters
    maxModelParameters: [() => model({ hidden: 1024 }), 'hidden'],
    maxModelActivations: [() => api.attentionModelForward(long, [], { batch: 1024 }), 'batch'],
    maxModelWork: [() => api.attentionModelForward(wide, [], { batch: 64 }), 'batch'],
    maxTrainingWork: [() => api.attentionModelTrain(wide, { steps: 1000, batch: 8, heldOut: 1, evalEvery: 1000 }),
      'steps'],
  };
  assert.deepEqual(Object.keys({ ...cases, ...overCases }).sort(), Object.keys(limits).sort(), 'a case for every limit');
  for (const [key, [call, argument, step = 1]] of Object.entries(cases)) {
    assert.doesNotThrow(() => call(limits[key]), `${key} at ${limits[key]}`);
    assertArgumentError(() => call(limits[key] + step), argument);
  }
  for (const [key, [call, argument]] of Object.entries(overCases)) {
    let refusal;
    try {
      call();
    } catch (error) {
      refusal = error;
    }
    assertArgumentError(() => { throw refusal; }, argument);
    assert.match(refusal.message, new RegExp(`(?<!\\d)${limits[key]}(?!\\d)`), `${key}: the bound quoted`);
  }
});

test('defaults are the book\'s', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(defaults)), {
    dataset: { n: 50, seed: 0, noise: 0.5, xMax: 5 },
    kernel: { kernel: 'gaussian', w: 1 },
    training: { w0: 1, lr: 0.5, epochs: 5, leaveOneOut: true },
    scalingStudy: { dims: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512], samples: 500, keys: 10, seed: 0 },
    consistencyStudy: { sizes: [10, 20, 50, 100, 200, 500, 1000, 2000], repeats: 20, queries: 50, w: 1, noise: 0.5, xMax: 5, seed: 0 },
    randomNormal: { seed: 0, std: 1 },
    randomUniform: { seed: 0, low: 0, high: 1 },
    maskedScore: -1e6,
    heldOutSeedMix: 0x5bd1e995,
    attentionModel: { vocab: 10, length: 8, hidden: 32, heads: 4, blocks: 1, ffnHidden: 0, embeddingScale: 1, positional: 'sinusoidal', seed: 0 },
    attentionTask: { task: 'reverse', batch: 32, length: 8, vocab: 10, seed: 0, lag: 1, variableLengths: false },
    attentionTraining: {
      task: 'reverse', lag: 1, variableLengths: false, causal: false, steps: 100, batch: 32, optimizer: 'adam',
      lr: 0.01, seed: 0, evalEvery: 50, heldOut: 256, evaluateAtEnd: true,
    },
    // d2l 10.4's recipe and sizes, with Bahdanau et al.'s bidirectional encoder; the sizes are the task's.
    seq2seqModel: {
      architecture: 'bahdanau', task: 'numbers-en-zh', sourceVocab: null, targetVocab: null, sourceLength: null,
      targetLength: null, hidden: 32, embed: 32, layers: 2, bidirectional: true, scoring: null, cell: 'gru', heads: 4, ffnHidden: 64, blocks: 2,
      embeddingScale: 1, seed: 0,
    },
    seq2seqTraining: {
      task: 'numbers-en-zh', steps: 50, batch: 64, optimizer: 'adam', lr: 0.005, clip: 1, seed: 0, evalEvery: 50,
      heldOut: 500, evaluateAtEnd: true,
    },
  });
});

test('batchMatrixProduct holds every extent to maxPoints: at it the call works, just over it is refused', () => {
  const ones = (shape) => new Float64Array(shape[0] * shape[1] * shape[2]).fill(1);
  const call = (shapeX, shapeY) => api.batchMatrixProduct(ones(shapeX), ones(shapeY), { shapeX, shapeY });
  const at = limits.maxPoints;
  const over = at + 1;
  // One extent at a time (with its partner in Y), the others 1: operands and result stay small.
  const cases = [
    [[at, 1, 1], [at, 1, 1], [[over, 1, 1], [over, 1, 1]], 'shapeX[0] (n)'],
    [[1, at, 1], [1, 1, 1], [[1, over, 1], [1, 1, 1]], 'shapeX[1] (a)'],
    [[1, 1, at], [1, at, 1], [[1, 1, over], [1, over, 1]], 'shapeX[2] (b)'],
    [[1, 1, 1], [1, 1, at], [[1, 1, 1], [1, 1, over]], 'shapeY[2] (c)'],
  ];
  for (const [shapeX, shapeY, [overX, overY], argument] of cases) {
    assert.deepEqual(call(shapeX, shapeY).shape, [shapeX[0], shapeX[1], shapeY[2]], argument);
    assertArgumentError(() => call(overX, overY), argument);
  }
});

test('defaults.dataset is the native core\'s DatasetOptions, and makeDataset() draws it', () => {
  const dump = process.env.ATTENTION_DATASET_DUMP;
  assert.ok(dump && existsSync(dump),
    'the native dataset_dump is needed: run through ctest after the native preset (cmake --workflow --preset native)');
  const [native] = JSON.parse(execFileSync(dump, ['--defaults'], { encoding: 'utf8' })).datasets;
  const { x, y, ...options } = native;
  assert.deepEqual({ ...defaults.dataset }, options);
  const drawn = api.makeDataset();
  assertSameBits(drawn.x, Float64Array.from(x, fromHex), 'x');
  assertSameBits(drawn.y, Float64Array.from(y, fromHex), 'y');
  assertSameBits(api.makeDataset({}).y, drawn.y, 'an empty options object');
  assertSameBits(api.makeDataset(defaults.dataset).y, drawn.y, 'the defaults given');
});

test('a call without options is the call with the defaults', () => {
  const { x, y } = api.makeDataset({ n: 30, seed: 3 });
  const queries = f64([0.1, 1.7, 2.2, 4.9]);

  const trained = api.trainKernelWidth(x, y);
  assert.deepEqual(trained, api.trainKernelWidth(x, y, defaults.training));
  assert.equal(trained.w.length, defaults.training.epochs + 1);
  assert.equal(trained.w[0], defaults.training.w0);
  assert.notDeepEqual(trained, api.trainKernelWidth(x, y, { ...defaults.training, lr: 0.25 }), 'lr matters');

  const ws = [0.5, 1, 2];
  assert.deepEqual(api.lossLandscape(x, y, ws), api.lossLandscape(x, y, ws, { leaveOneOut: true }));
  assert.notDeepEqual(api.lossLandscape(x, y, ws), api.lossLandscape(x, y, ws, { leaveOneOut: false }));
  assert.deepEqual(api.kernelWidthLoss(x, y, 1), api.kernelWidthLoss(x, y, 1, { leaveOneOut: true }));

  assert.deepEqual(api.attentionWeights(queries, x), api.attentionWeights(queries, x, defaults.kernel));
  assert.deepEqual(api.nadarayaWatson(queries, x, y), api.nadarayaWatson(queries, x, y, defaults.kernel));
  assert.notDeepEqual(api.nadarayaWatson(queries, x, y), api.nadarayaWatson(queries, x, y, { w: 2 }), 'w matters');

  assertSameBits(api.randomNormal(7), api.randomNormal(7, defaults.randomNormal), 'randomNormal');
  assertSameBits(api.randomNormal(5), f64(references.randomNormal[0].values), 'randomNormal: seed 0, std 1');
  assertSameBits(api.randomUniform(7), api.randomUniform(7, defaults.randomUniform), 'randomUniform');

  const study = api.scalingStudy({ samples: 20 });
  assert.deepEqual(study.map((row) => row.d), [...defaults.scalingStudy.dims]);
  assert.deepEqual(study, api.scalingStudy({ ...defaults.scalingStudy, samples: 20 }));
  assert.equal(api.scalingStudy({ dims: [4] })[0].variance,
    api.scalingStudy({ dims: [4], samples: defaults.scalingStudy.samples, keys: defaults.scalingStudy.keys,
      seed: defaults.scalingStudy.seed })[0].variance);
});

test('defaults.maskedScore is what maskScores writes over masked scores', () => {
  const { maskedScores, masked } = api.maskScores([1, 2, 3, 4], [1, 1, 4], [2]);
  assert.deepEqual(Array.from(masked), [0, 0, 1, 1]);
  assert.deepEqual(Array.from(maskedScores), [1, 2, defaults.maskedScore, defaults.maskedScore]);
});

// Each kind's names come from one table in the core (contract/kind_names.hpp):
// the API hands them out as `kinds`, the .d.ts unions name the same ones in
// the same order, and a name outside the table is refused naming the
// argument and every name it takes.
test('kinds: the core\'s one table per kind, the .d.ts\'s unions, and refusals that list them', () => {
  const { kinds } = api;
  assert.ok(Object.isFrozen(kinds) && Object.values(kinds).every(Object.isFrozen));
  const types = readFileSync(new URL('../../wasm/attention-core.d.ts', import.meta.url), 'utf8');
  const union = (type) => {
    const declared = new RegExp(`^export type ${type} = ([^;]+);$`, 'm').exec(types);
    assert.ok(declared, `the .d.ts declares ${type}`);
    return declared[1].split('|').map((name) => name.trim().replace(/^'|'$/g, ''));
  };
  const typeOf = { optimizer: 'Optimizer', attentionTask: 'AttentionTask', positional: 'PositionalKind', seq2seqTask: 'Seq2SeqTask', seq2seqArchitecture: 'Seq2SeqArchitecture',
    seq2seqScoring: 'Seq2SeqScoring',
    seq2seqCell: 'Seq2SeqCell',
  };
  assert.deepEqual(Object.keys(kinds).sort(), Object.keys(typeOf).sort());
  for (const [kind, type] of Object.entries(typeOf)) assert.deepEqual([...kinds[kind]].sort(), union(type).sort(), kind);

  const listed = (names) => `one of ${names.join(', ')}`;
  const refusal = (call, argument, names) => {
    assertArgumentError(call, argument);
    try {
      call();
    } catch (error) {
      assert.ok(error.message.includes(listed(names)), `${error.message} lists ${names}`);
    }
  };
  const model = api.attentionModelInit({ vocab: 4, length: 2, hidden: 4, heads: 1, blocks: 1 });
  refusal(() => api.attentionModelStep(model, [1, 2], [2, 1], { batch: 1, optimizer: 'rmsprop' }), 'optimizer', kinds.optimizer);
  refusal(() => api.attentionTaskBatch({ task: 'copy' }), 'task', kinds.attentionTask);
  refusal(() => api.attentionModelInit({ positional: 'rotary' }), 'positional', kinds.positional);
  refusal(() => api.seq2seqVocabulary('numbers'), 'task', kinds.seq2seqTask);
  refusal(() => api.seq2seqInit({ architecture: 'lstm', task: 'reverse' }), 'architecture', kinds.seq2seqArchitecture);
  refusal(() => api.seq2seqInit({ scoring: 'cosine', task: 'reverse' }), 'scoring', kinds.seq2seqScoring);
  refusal(() => api.seq2seqInit({ cell: 'rnn', task: 'reverse' }), 'cell', kinds.seq2seqCell);
  // The LSTM: four gates a unit under nn.LSTM's names; the Transformer has no cell to change.
  const lstm = api.seq2seqInit({ cell: 'lstm', task: 'reverse' });
  assert.equal(lstm.config.cell, 'lstm');
  assert.equal(lstm.params['decoder.rnn.weight_hh_l0'].length, 4 * lstm.config.hidden * lstm.config.hidden);
  assertArgumentError(() => api.seq2seqInit({ architecture: 'transformer', cell: 'lstm', task: 'reverse' }), 'cell');
  // null takes the architecture's own, and a model's config names it.
  assert.equal(api.seq2seqInit({ task: 'reverse' }).config.scoring, 'additive');
  assert.equal(api.seq2seqInit({ architecture: 'transformer', task: 'reverse' }).config.scoring, 'dot');
  // Either architecture takes either scoring; the Transformer's additive heads bring their own weights.
  const additive = api.seq2seqInit({ architecture: 'transformer', scoring: 'additive', task: 'reverse' });
  assert.equal(additive.config.scoring, 'additive');
  const shared = Object.entries(additive.params).filter(([name]) => name.endsWith('.attention.w_v.weight'));
  assert.equal(shared.length, 3 * additive.config.blocks);
  for (const [, values] of shared) assert.equal(values.length, additive.config.hidden / additive.config.heads);
  assertArgumentError(() => api.seq2seqInit({ scoring: 7, task: 'reverse' }), 'scoring');
  // Each default names a kind of its table.
  assert.ok(kinds.optimizer.includes(defaults.attentionTraining.optimizer));
  assert.ok(kinds.optimizer.includes(defaults.seq2seqTraining.optimizer));
  assert.ok(kinds.attentionTask.includes(defaults.attentionTraining.task));
  assert.ok(kinds.positional.includes(defaults.attentionModel.positional));
  assert.ok(kinds.seq2seqTask.includes(defaults.seq2seqTraining.task));
  assert.ok(kinds.seq2seqArchitecture.includes(defaults.seq2seqModel.architecture));
});
