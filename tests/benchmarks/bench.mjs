// The speed benchmark: wasm against native, plain JS and TF.js (a benchmark,
// not a timed test: it reports, it does not fail on a missed budget).
//
// Three heavy paths of the core, at n = 50, 500, 2000 and 5000:
//   Nadaraya-Watson pooling, Gaussian kernel, n queries x n keys;
//   the n x n attention weights (attentionWeights; not at n = 5000, whose
//   25 M weights exceed the core's documented limit of 2^24);
//   one leave-one-out training epoch of the kernel width at n;
// each measured four ways: (a) natively (the C++ executable
// attention_benchmark, one process per size), (b) as the wasm module under
// Node through the public JS API in dist/attention-core.mjs, (c) as plain JS
// loops doing the same maths, (d) with TensorFlow.js (tfjs-core and its wasm
// backend, XNNPACK with wasm SIMD, one thread), the same maths in its ops:
// squared differences, scores, softmax, matMul. TensorFlow.js computes in
// float32 (its wasm backend has no float64); everything else in float64.
//
// The data come from the core's makeDataset with a fixed seed. The
// implementations must agree before anything is timed (native, wasm and JS
// to 1e-9; TensorFlow.js to 1e-3, float32); the script aborts if they do not.
// Every figure is the median of --repetitions timed samples after --warmup
// untimed ones. The samples are interleaved (one of each implementation a
// round, every order in turn, the native executable serving one sample per
// request), so a machine that is busy with something else slows all of them
// alike. A sample is one call at the big sizes and a batch of calls at the
// small ones (about 10^6 pairs a sample: 400 calls at n = 50, 4 at n = 500),
// divided by the count. Each sample is timed as CPU time of the process (std::clock
// natively, process.cpuUsage() in Node) and on the wall clock: on a shared
// machine the wall clock also counts the time other processes hold the CPU,
// so the budgets are judged on CPU time (on an idle machine the two agree).
//
// Usage: node tests/benchmarks/bench.mjs [--native build/native/tests/benchmarks/attention_benchmark]
//          [--dist dist/attention-core.mjs] [--sizes 50,500,2000,5000] [--n N (one size)]
//          [--warmup 3] [--repetitions 21] [--no-tfjs]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import readline from 'node:readline';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';

// Steady state only: V8 first runs wasm through its baseline compiler
// (Liftoff) and swaps in optimised code compiled in the background; wasm has
// no on-stack replacement, and on a busy machine a whole run was once timed on
// Liftoff code (wasm 3x slower). Without Liftoff the module is compiled by the
// optimising tier up front: the code every page runs after its first calls.
// (Set before the modules are imported, which is when they are compiled; it
// applies to TensorFlow.js's wasm as well.)
v8.setFlagsFromString('--no-liftoff');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    native: { type: 'string', default: path.join(root, 'build/native/tests/benchmarks/attention_benchmark') },
    dist: { type: 'string', default: path.join(root, 'dist/attention-core.mjs') },
    sizes: { type: 'string', default: '50,500,2000,5000' },
    n: { type: 'string' },
    warmup: { type: 'string', default: '3' },
    repetitions: { type: 'string', default: '21' },
    'no-tfjs': { type: 'boolean', default: false },
  },
});
const config = {
  sizes: (args.n ?? args.sizes).split(',').map(Number),
  seed: 7, xMax: 5, w: 1, lr: 0.5,
  warmup: Number(args.warmup), repetitions: Number(args.repetitions),
  pairsPerSample: 1e6,
};
if (!config.sizes.every((n) => Number.isInteger(n) && n >= 2 && n <= 10000)) {
  console.error('bench: --n and --sizes take whole numbers in [2, 10000]');
  process.exit(2);
}
if (!(Number.isInteger(config.warmup) && config.warmup >= 0 && Number.isInteger(config.repetitions) && config.repetitions >= 1)) {
  console.error('bench: --warmup must be a whole number >= 0 and --repetitions one >= 1');
  process.exit(2);
}
// At every size: wasm within 1.25x of native, ahead of plain JS and of
// TensorFlow.js. At n = 2000 also (for pooling and the epoch) wasm at least
// twice as fast as plain JS: the plain-JS budget.
const budgets = { wasmOverNative: 1.25, jsOverWasm: 1, tfjsOverWasm: 1, plainJs: { n: 2000, jsOverWasm: 2 } };
const tolerance = 1e-9; // |a - b| <= tolerance * max(1, |a|), float64 implementations
const tfjsTolerance = 1e-3; // the same against TensorFlow.js (float32)
const maxMatrixElements = 2 ** 24; // core/contract/limits.hpp: no n x n weights beyond it

for (const file of [args.native, args.dist]) {
  if (!existsSync(file)) {
    console.error(`bench: ${file} is missing; build first (cmake --build --preset native && cmake --build --preset web)`);
    process.exit(2);
  }
}

// ---- plain JS: the same maths as core/regression/pooling.cpp and core/regression/kernel_width_training.cpp ----
// Row by row: squared distances and their minimum, then the max-subtracted
// softmax weights and their sums, as in the core. Math.exp is JS's exp (a JS
// port of the core's polynomial exp measured no faster under Node 20). Each
// loop is the fastest of the plain-JS variants measured: pooling keeps its
// sums in four interleaved lanes like the core (about 10% faster than one
// running sum, and the core's summation order), training in running sums.

function nadarayaWatsonJS(queries, keys, values, w) {
  const nk = keys.length;
  const tail = nk - (nk % 4);
  const halfW2 = 0.5 * w * w;
  const d2 = new Float64Array(nk);
  const prediction = new Float64Array(queries.length);
  for (let i = 0; i < queries.length; i += 1) {
    const q = queries[i];
    let minD2 = Infinity;
    for (let j = 0; j < nk; j += 1) {
      const d = q - keys[j];
      const s = d * d;
      d2[j] = s;
      if (s < minD2) minD2 = s;
    }
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0; // sum of the weights, in four lanes
    let v0 = 0, v1 = 0, v2 = 0, v3 = 0; // weighted sum of the values
    for (let j = 0; j < tail; j += 4) {
      const e0 = Math.exp(-halfW2 * (d2[j] - minD2));
      const e1 = Math.exp(-halfW2 * (d2[j + 1] - minD2));
      const e2 = Math.exp(-halfW2 * (d2[j + 2] - minD2));
      const e3 = Math.exp(-halfW2 * (d2[j + 3] - minD2));
      s0 += e0; s1 += e1; s2 += e2; s3 += e3;
      v0 += e0 * values[j]; v1 += e1 * values[j + 1]; v2 += e2 * values[j + 2]; v3 += e3 * values[j + 3];
    }
    for (let j = tail; j < nk; j += 1) { // at most three, to lanes 0, 1, 2 as in the core
      const e = Math.exp(-halfW2 * (d2[j] - minD2));
      if (j === tail) { s0 += e; v0 += e * values[j]; } else if (j === tail + 1) { s1 += e; v1 += e * values[j]; } else { s2 += e; v2 += e * values[j]; }
    }
    const sum = (s0 + s1) + (s2 + s3);
    prediction[i] = sum > 0 ? ((v0 + v1) + (v2 + v3)) / sum : NaN; // no weight at all: NaN by contract
  }
  return prediction;
}

// The n x n weights, as the core's attention_weights: per row the shifted
// exp into the matrix, its sum in four lanes, then times 1 / sum.
function attentionWeightsJS(queries, keys, w, weights) {
  const nk = keys.length;
  const tail = nk - (nk % 4);
  const halfW2 = 0.5 * w * w;
  for (let i = 0; i < queries.length; i += 1) {
    const q = queries[i];
    const base = i * nk;
    let minD2 = Infinity;
    for (let j = 0; j < nk; j += 1) {
      const d = q - keys[j];
      const s = d * d;
      weights[base + j] = s;
      if (s < minD2) minD2 = s;
    }
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (let j = 0; j < tail; j += 4) {
      const e0 = Math.exp(-halfW2 * (weights[base + j] - minD2));
      const e1 = Math.exp(-halfW2 * (weights[base + j + 1] - minD2));
      const e2 = Math.exp(-halfW2 * (weights[base + j + 2] - minD2));
      const e3 = Math.exp(-halfW2 * (weights[base + j + 3] - minD2));
      weights[base + j] = e0; weights[base + j + 1] = e1; weights[base + j + 2] = e2; weights[base + j + 3] = e3;
      s0 += e0; s1 += e1; s2 += e2; s3 += e3;
    }
    for (let j = tail; j < nk; j += 1) {
      const e = Math.exp(-halfW2 * (weights[base + j] - minD2));
      weights[base + j] = e;
      if (j === tail) s0 += e; else if (j === tail + 1) s1 += e; else s2 += e;
    }
    const sum = (s0 + s1) + (s2 + s3);
    const inverse = sum > 0 ? 1 / sum : NaN;
    for (let j = 0; j < nk; j += 1) weights[base + j] *= inverse;
  }
  return weights;
}

// Leave-one-out loss sum_i (y_hat_i - y_i)^2 and its analytic derivative in w:
// with alpha_ij the weights, d y_hat_i / dw = -w (sum_j alpha_ij d_ij^2 y_j - y_hat_i sum_j alpha_ij d_ij^2).
// Here plain running sums: lane-split variants (four lanes in arrays or
// typed arrays, two lanes in scalars) measured 5-25% slower in JS.
function lossAndGradientJS(x, y, w) {
  const n = x.length;
  const halfW2 = 0.5 * w * w;
  const d2 = new Float64Array(n);
  let loss = 0;
  let gradient = 0;
  for (let i = 0; i < n; i += 1) {
    const xi = x[i];
    let minD2 = Infinity;
    for (let j = 0; j < n; j += 1) {
      const d = xi - x[j];
      const s = d * d;
      d2[j] = s;
      if (j !== i && s < minD2) minD2 = s;
    }
    let sum = 0;
    let sumY = 0;
    let sumD2 = 0;
    let sumD2Y = 0;
    for (let j = 0; j < n; j += 1) {
      if (j === i) continue; // leave one out
      const s = d2[j];
      const e = Math.exp(-halfW2 * (s - minD2));
      const ey = e * y[j];
      sum += e;
      sumY += ey;
      sumD2 += e * s;
      sumD2Y += ey * s;
    }
    const yHat = sumY / sum;
    const dyHat = (-w * (sumD2Y - yHat * sumD2)) / sum;
    const error = yHat - y[i];
    loss += error * error;
    gradient += 2 * error * dyHat;
  }
  return { loss, gradient };
}

// One epoch of the d2l recipe (lr 0.5): the loss before the step, then the step.
function trainEpochJS(x, y, w0, lr) {
  const { loss, gradient } = lossAndGradientJS(x, y, w0);
  return { w: Float64Array.of(w0, w0 - lr * gradient), loss: Float64Array.of(loss) };
}


// ---- TensorFlow.js, wasm backend (float32) ----
// The same maths in TensorFlow.js ops. Each call converts its float64 inputs
// to float32 tensors and reads its result back into a typed array, as the
// wasm API copies its inputs in and its result out. Generous to TensorFlow.js:
// squaredDifference is one fused op, and the leave-one-out mask (-1e30 on the
// diagonal, so the point itself gets weight 0) is an n x n constant made once
// per size, outside the timing.

async function loadTensorFlow() {
  const tf = await import('@tensorflow/tfjs-core');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  // The .wasm files from node_modules, read from disk: no network.
  setWasmPaths(`${path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist')}/`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not initialise');
  await tf.ready();
  return tf;
}

function tensorFlowImplementation(tf) {
  const scores = (q, k, w) => tf.mul(tf.squaredDifference(q, k), tf.scalar(-0.5 * w * w));
  const read = (tensor) => {
    const data = tensor.dataSync();
    tensor.dispose();
    return data;
  };
  return {
    pooling(queries, keys, values, w) {
      return read(tf.tidy(() => {
        const q = tf.tensor2d(Float32Array.from(queries), [queries.length, 1]);
        const k = tf.tensor2d(Float32Array.from(keys), [1, keys.length]);
        const v = tf.tensor2d(Float32Array.from(values), [values.length, 1]);
        return tf.reshape(tf.matMul(tf.softmax(scores(q, k, w)), v), [queries.length]);
      }));
    },
    weights(queries, keys, w) {
      return read(tf.tidy(() => {
        const q = tf.tensor2d(Float32Array.from(queries), [queries.length, 1]);
        const k = tf.tensor2d(Float32Array.from(keys), [1, keys.length]);
        return tf.softmax(scores(q, k, w));
      }));
    },
    // One epoch of the d2l recipe with the core's analytic gradient:
    // d y_hat_i / dw = -w (sum_j alpha_ij d_ij^2 y_j - y_hat_i sum_j alpha_ij d_ij^2).
    epoch(x, y, w0, lr, mask) {
      const n = x.length;
      const [loss, gradient] = read(tf.tidy(() => {
        const column = tf.tensor2d(Float32Array.from(x), [n, 1]);
        const row = tf.reshape(column, [1, n]);
        const yColumn = tf.tensor2d(Float32Array.from(y), [n, 1]);
        const d2 = tf.squaredDifference(column, row);
        const alpha = tf.softmax(tf.add(tf.mul(d2, tf.scalar(-0.5 * w0 * w0)), mask));
        const yHat = tf.matMul(alpha, yColumn);
        const sums = tf.matMul(tf.mul(alpha, d2), tf.concat([yColumn, tf.onesLike(yColumn)], 1));
        const [sumD2Y, sumD2] = tf.split(sums, 2, 1);
        const dyHat = tf.mul(tf.scalar(-w0), tf.sub(sumD2Y, tf.mul(yHat, sumD2)));
        const error = tf.sub(yHat, yColumn);
        return tf.stack([tf.sum(tf.square(error)), tf.mul(tf.scalar(2), tf.sum(tf.mul(error, dyHat)))]);
      }));
      return { w: Float64Array.of(w0, w0 - lr * gradient), loss: Float64Array.of(loss) };
    },
    leaveOneOutMask(n) {
      return tf.tidy(() => tf.mul(tf.eye(n), tf.scalar(-1e30)));
    },
  };
}

// ---- helpers ----

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
}

let lastResult = null; // keeps every result observable, so no call can be optimised away
// `calls` back-to-back calls: wall-clock ms and CPU ms of the process (as the native side measures).
function timeCalls(body, calls) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let call = 0; call < calls; call += 1) lastResult = body();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function maxDifference(name, a, b, limit, absoluteOnly = false) {
  if (a.length !== b.length) throw new Error(`${name}: lengths differ (${a.length} vs ${b.length})`);
  let worst = 0;
  let ok = true;
  for (let i = 0; i < a.length; i += 1) {
    const difference = Math.abs(a[i] - b[i]);
    if (!(difference <= limit * (absoluteOnly ? 1 : Math.max(1, Math.abs(a[i]))))) ok = false;
    if (!(difference <= worst)) worst = difference;
  }
  return { name, worst, ok, limit };
}

// The native executable in serving mode for one size: a JSON line with its
// data set and results, then one timed sample per request line.
function startNative(n) {
  const child = spawn(path.resolve(args.native), [
    '--n', String(n), '--seed', String(config.seed), '--x-max', String(config.xMax),
    '--w', String(config.w), '--serve',
  ], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const line = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`bench: ${args.native} ended unexpectedly`);
    return value;
  };
  return {
    first: async () => JSON.parse(await line()),
    async call(path_, calls) {
      child.stdin.write(`${path_} ${calls}\n`);
      const reply = await line();
      const [wall, cpu] = reply.split(' ').map(Number);
      if (!Number.isFinite(wall) || !Number.isFinite(cpu)) throw new Error(`bench: ${args.native} answered '${reply}'`);
      return { wall, cpu };
    },
    stop: () => child.stdin.end('quit\n'),
  };
}

// ---- the implementations ----

const { loadAttentionCore } = await import(pathToFileURL(path.resolve(args.dist)).href);
const core = await loadAttentionCore();
let tensorFlow = null;
if (!args['no-tfjs']) {
  try {
    const tf = await loadTensorFlow();
    tensorFlow = { tf, ...tensorFlowImplementation(tf) };
  } catch (error) {
    console.error(`bench: TensorFlow.js not measured (${error.message}); npm install first, or pass --no-tfjs`);
    process.exit(2);
  }
}
const who = ['native', 'wasm', 'js', ...(tensorFlow ? ['tfjs'] : [])];
const names = { native: 'native', wasm: 'wasm', js: 'JS', tfjs: 'TF.js' };
const paths = ['pooling', 'weights', 'epoch'];
// Every order of the implementations in turn, one a round: each follows each
// other equally often, so no implementation always inherits the garbage
// collection owed by the same predecessor (the plain-JS weights leave 32 MB
// a call at n = 2000; Node's background GC threads count in its CPU time).
const permutations = (list) => (list.length <= 1 ? [list]
  : list.flatMap((first, i) => permutations([...list.slice(0, i), ...list.slice(i + 1)]).map((rest) => [first, ...rest])));
const orders = permutations(who);
const labels = { pooling: 'Nadaraya-Watson pooling', weights: 'attention weights n x n', epoch: 'training epoch' };

console.log(`Benchmark: node ${process.version}${tensorFlow ? `, TensorFlow.js ${tensorFlow.tf.version_core} ` +
  `(wasm backend, SIMD ${tensorFlow.tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? 'on' : 'off'}, ` +
  `threads ${tensorFlow.tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'on' : 'off'}, float32)` : ''}`);
console.log(`Data: makeDataset({ n, seed: ${config.seed}, xMax: ${config.xMax} }), queries evenly spaced on ` +
  `[0, ${config.xMax}), Gaussian kernel w = ${config.w}; training: w0 = ${config.w}, lr = ${config.lr}, leave-one-out.`);

const medians = {}; // medians[n][path][who] = { cpu, wall } per call
let failed = false;
for (const n of config.sizes) {
  const { x, y } = core.makeDataset({ n, seed: config.seed, xMax: config.xMax });
  const queries = Float64Array.from({ length: n }, (_, i) => (i * config.xMax) / n);
  const hasWeights = n * n <= maxMatrixElements;
  const native = startNative(n);
  const nativeFirst = await native.first();
  const mask = tensorFlow ? tensorFlow.leaveOneOutMask(n) : null;
  // The weights go into an array made once per size (the API's `out`), as a
  // page redrawing a heatmap would; a fresh n x n array each call costs
  // about as much as computing it (tests/benchmarks/README.md). TF.js has no
  // such option: dataSync() returns a new Float32Array.
  const weightsOut = { wasm: new Float64Array(hasWeights ? n * n : 0), js: new Float64Array(hasWeights ? n * n : 0) };

  const bodies = {
    pooling: {
      wasm: () => core.nadarayaWatson(queries, x, y, { kernel: 'gaussian', w: config.w }),
      js: () => nadarayaWatsonJS(queries, x, y, config.w),
      tfjs: () => tensorFlow.pooling(queries, x, y, config.w),
    },
    weights: {
      wasm: () => core.attentionWeights(queries, x, { kernel: 'gaussian', w: config.w, out: weightsOut.wasm }),
      js: () => attentionWeightsJS(queries, x, config.w, weightsOut.js),
      tfjs: () => tensorFlow.weights(queries, x, config.w),
    },
    epoch: {
      wasm: () => core.trainKernelWidth(x, y, { w0: config.w, lr: config.lr, epochs: 1, leaveOneOut: true }),
      js: () => trainEpochJS(x, y, config.w, config.lr),
      tfjs: () => tensorFlow.epoch(x, y, config.w, config.lr, mask),
    },
  };
  const activePaths = paths.filter((p) => p !== 'weights' || hasWeights);

  // Agreement first: the same data set bit for bit, then the same results.
  const results = { native: { ...nativeFirst.results } };
  for (const w of who.filter((w) => w !== 'native')) {
    results[w] = { prediction: bodies.pooling[w](), ...bodies.epoch[w]() };
    if (hasWeights) results[w].weights = bodies.weights[w]();
  }
  const checks = [
    maxDifference('data set x, native vs wasm', nativeFirst.data.x, x, 0),
    maxDifference('data set y, native vs wasm', nativeFirst.data.y, y, 0),
  ];
  const pairs = [['native', 'wasm'], ['native', 'js'], ['wasm', 'js'], ...(tensorFlow ? [['wasm', 'tfjs']] : [])];
  for (const [a, b] of pairs) {
    const limit = b === 'tfjs' ? tfjsTolerance : tolerance;
    for (const key of ['prediction', 'w', 'loss']) {
      checks.push(maxDifference(`${key}, ${names[a]} vs ${names[b]}`, results[a][key], results[b][key], limit, key === 'prediction'));
    }
    if (hasWeights) {
      // The native side sends three rows (first, middle, last) of its matrix.
      const pick = (w) => (w === 'native' ? nativeFirst.results.weightRows.values
        : Float64Array.from(nativeFirst.results.weightRows.index.flatMap((i) => Array.from(results[w].weights.subarray(i * n, (i + 1) * n)))));
      const full = a !== 'native';
      checks.push(maxDifference(`weights${full ? '' : ' (3 rows)'}, ${names[a]} vs ${names[b]}`,
        full ? results[a].weights : pick(a), full ? results[b].weights : pick(b), limit, true));
    }
  }
  const dataIdentical = checks[0].worst === 0 && checks[1].worst === 0;
  console.log(`\nn = ${n}: agreement (relative for w and loss, absolute for predictions and weights)`);
  for (const { name, worst, ok, limit } of checks) {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(34)} max |difference| ${worst.toExponential(2)}  (<= ${limit})`);
  }
  if (!dataIdentical || !checks.every((check) => check.ok) ||
      results.native.prediction.some(Number.isNaN) || !Number.isFinite(results.native.loss[0])) {
    console.error(!dataIdentical ? 'bench: the native and wasm data sets differ; not timing'
      : 'bench: the implementations disagree (or NaN); not timing');
    native.stop();
    process.exit(1);
  }
  results.wasm = results.js = results.tfjs = null; // free the big matrices before timing

  // Timing, interleaved.
  const calls = Math.max(1, Math.round(config.pairsPerSample / (n * n)));
  medians[n] = { calls };
  for (const key of activePaths) {
    const samples = Object.fromEntries(who.map((w) => [w, []]));
    for (let round = 0; round < config.warmup + config.repetitions; round += 1) {
      const order = orders[round % orders.length];
      for (let k = 0; k < who.length; k += 1) {
        const w = order[k];
        const sample = w === 'native' ? await native.call(key, calls) : timeCalls(bodies[key][w], calls);
        if (round >= config.warmup) samples[w].push(sample);
      }
    }
    medians[n][key] = Object.fromEntries(who.map((w) => [w, {
      cpu: median(samples[w].map((s) => s.cpu)) / calls,
      wall: median(samples[w].map((s) => s.wall)) / calls,
    }]));
  }
  native.stop();
  mask?.dispose();
  if (lastResult === null) throw new Error('bench: nothing was timed');

  // The table of this size.
  const m = medians[n];
  const digits = (v) => (v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(1));
  const cell = (key, w) => `${digits(m[key][w].cpu).padStart(7)} (${digits(m[key][w].wall).padStart(7)})`;
  const ratioOf = (key, a, b, clock = 'cpu') => m[key][a][clock] / m[key][b][clock];
  const ratio = (key, a, b) => `${ratioOf(key, a, b).toFixed(2).padStart(5)} (${ratioOf(key, a, b, 'wall').toFixed(2)})`;
  const ratioColumns = [['wasm', 'native'], ['js', 'wasm'], ...(tensorFlow ? [['tfjs', 'wasm']] : [])];
  console.log(`n = ${n}: medians of ${config.repetitions} interleaved samples after ${config.warmup} warm-up rounds, ` +
    `${calls === 1 ? 'one call a sample' : `${calls} calls a sample`}; ms per call, CPU time (wall clock)`);
  console.log(`${''.padEnd(26)}${who.map((w) => names[w].padStart(18)).join('')}  ` +
    `${ratioColumns.map(([a, b]) => `${names[a]}/${names[b]}`.padStart(13)).join('')}  budgets`);
  for (const key of paths) {
    if (!activePaths.includes(key)) {
      console.log(`${labels[key].padEnd(26)}  n/a: ${n} x ${n} = ${n * n} weights exceed the core's limit of 2^24`);
      continue;
    }
    const verdicts = [ratioOf(key, 'wasm', 'native') <= budgets.wasmOverNative, ratioOf(key, 'js', 'wasm') > budgets.jsOverWasm];
    if (tensorFlow) verdicts.push(ratioOf(key, 'tfjs', 'wasm') > budgets.tfjsOverWasm);
    if (n === budgets.plainJs.n && key !== 'weights') verdicts.push(ratioOf(key, 'js', 'wasm') >= budgets.plainJs.jsOverWasm);
    const met = verdicts.every(Boolean);
    if (!met) failed = true;
    console.log(`${labels[key].padEnd(26)}${who.map((w) => ` ${cell(key, w)}`).join('')}  ` +
      `${ratioColumns.map(([a, b]) => ` ${ratio(key, a, b)}`).join('')}  ${met ? 'met' : 'MISSED'}`);
  }
}

// How cost grows with n: CPU ms per call, and ns per pair (one pair = one
// query-key weight; n^2 of them) in brackets; for a cost proportional to n^2
// the ns per pair stay flat. The last column is the exponent p of t ~ n^p
// between the two largest sizes with figures.
const sizes = config.sizes;
console.log(`\nHow cost grows with n: CPU ms per call [ns per pair = ms * 1e6 / n^2]`);
console.log(`${''.padEnd(34)}${sizes.map((n) => `n = ${n}`.padStart(20)).join('')}  exponent`);
for (const key of paths) {
  for (const w of who) {
    const have = sizes.filter((n) => medians[n][key]);
    if (have.length === 0) continue;
    const cells = sizes.map((n) => (medians[n][key]
      ? `${medians[n][key][w].cpu.toPrecision(3)} [${((medians[n][key][w].cpu * 1e6) / (n * n)).toFixed(2)}]`
      : 'n/a').padStart(20));
    let exponent = '';
    if (have.length >= 2) {
      const [a, b] = have.slice(-2);
      exponent = (Math.log(medians[b][key][w].cpu / medians[a][key][w].cpu) / Math.log(b / a)).toFixed(2);
    }
    console.log(`${`${labels[key]}, ${names[w]}`.padEnd(34)}${cells.join('')}  ${exponent.padStart(8)}`);
  }
}
console.log(`\nbudgets (every size, CPU time): wasm/native <= ${budgets.wasmOverNative}, ` +
  `JS/wasm > ${budgets.jsOverWasm}, TF.js/wasm > ${budgets.tfjsOverWasm}; ` +
  `(n = ${budgets.plainJs.n}, pooling and epoch): JS/wasm >= ${budgets.plainJs.jsOverWasm}.`);
if (tensorFlow) console.log('TensorFlow.js computes in float32, the others in float64.');
console.log(failed ? 'Some budgets missed (this is a report, not a test).' : 'All budgets met.');
