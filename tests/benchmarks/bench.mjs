// The benchmark of issue 2 (a benchmark, not a timed test: it reports, it
// does not fail on a missed budget).
//
//   Nadaraya-Watson pooling, Gaussian kernel, 2000 queries x 2000 keys;
//   one leave-one-out training epoch of the kernel width at n = 2000;
//
// each measured (a) natively (the C++ executable attention_benchmark),
// (b) as the wasm module under Node through the public JS API in
// dist/attention-core.mjs, and (c) as plain JS loops doing the same maths.
// The data come from the core's makeDataset with a fixed seed. The three
// implementations must agree before anything is timed; the script aborts if
// they do not. Every figure is the median of --repetitions timed calls after
// --warmup untimed ones. The calls are interleaved (one native, one wasm, one
// JS, in rotating order, the native executable serving one call per request),
// so a machine that is busy with something else slows all three alike. Each
// call is timed as CPU time of the process (std::clock natively,
// process.cpuUsage() in Node) and on the wall clock: on a shared machine the
// wall clock also counts the time other processes hold the CPU, so the
// budgets are judged on CPU time (on an idle machine the two agree).
//
// Usage: node tests/benchmarks/bench.mjs [--native build/native/tests/benchmarks/attention_benchmark]
//          [--dist dist/attention-core.mjs] [--warmup 3] [--repetitions 21] [--n 2000]
// (--n changes both sizes: n queries x n keys, and training at n; the budgets
// are stated for the default 2000.)
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
// (Set before the module is imported, which is when it is compiled.)
v8.setFlagsFromString('--no-liftoff');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    native: { type: 'string', default: path.join(root, 'build/native/tests/benchmarks/attention_benchmark') },
    dist: { type: 'string', default: path.join(root, 'dist/attention-core.mjs') },
    n: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '3' },
    repetitions: { type: 'string', default: '21' },
  },
});
const config = { n: Number(args.n), seed: 7, xMax: 5, w: 1, warmup: Number(args.warmup), repetitions: Number(args.repetitions) };
if (!(Number.isInteger(config.n) && config.n >= 2 && config.n <= 10000)) {
  console.error('bench: --n must be a whole number in [2, 10000]');
  process.exit(2);
}
if (!(Number.isInteger(config.warmup) && config.warmup >= 0 && Number.isInteger(config.repetitions) && config.repetitions >= 1)) {
  console.error('bench: --warmup must be a whole number >= 0 and --repetitions one >= 1');
  process.exit(2);
}
const budgets = { wasmOverNative: 1.3, jsOverWasm: 2 };
const tolerance = 1e-9; // |a - b| <= tolerance * max(1, |a|)

for (const file of [args.native, args.dist]) {
  if (!existsSync(file)) {
    console.error(`bench: ${file} is missing; build first (cmake --build --preset native && cmake --build --preset web)`);
    process.exit(2);
  }
}

// ---- (c) plain JS: the same maths as core/pooling.cpp and core/kernel_width_training.cpp ----
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
function trainEpochJS(x, y, w0, lr = 0.5) {
  const { loss, gradient } = lossAndGradientJS(x, y, w0);
  return { w: Float64Array.of(w0, w0 - lr * gradient), loss: Float64Array.of(loss) };
}

// ---- helpers ----

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
}

let lastResult = null; // keeps every result observable, so no call can be optimised away
// One call: wall-clock ms and CPU ms of the process (as the native side measures).
function timeOnce(body) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  lastResult = body();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function maxDifference(name, a, b, absoluteOnly = false) {
  if (a.length !== b.length) throw new Error(`${name}: lengths differ (${a.length} vs ${b.length})`);
  let worst = 0;
  let ok = true;
  for (let i = 0; i < a.length; i += 1) {
    const difference = Math.abs(a[i] - b[i]);
    if (!(difference <= tolerance * (absoluteOnly ? 1 : Math.max(1, Math.abs(a[i]))))) ok = false;
    if (!(difference <= worst)) worst = difference;
  }
  return { name, worst, ok };
}

// ---- data and the three implementations ----

const { loadAttentionCore } = await import(pathToFileURL(path.resolve(args.dist)).href);
const core = await loadAttentionCore();
const { x, y } = core.makeDataset({ n: config.n, seed: config.seed, xMax: config.xMax });
const queries = Float64Array.from({ length: config.n }, (_, i) => (i * config.xMax) / config.n);

// The native executable in serving mode: a JSON line with its data set and
// results, then one timed call per request line.
const child = spawn(path.resolve(args.native), [
  '--n', String(config.n), '--seed', String(config.seed), '--x-max', String(config.xMax),
  '--w', String(config.w), '--serve',
], { stdio: ['pipe', 'pipe', 'inherit'] });
const nativeLines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
async function nativeLine() {
  const { value, done } = await nativeLines.next();
  if (done) throw new Error(`bench: ${args.native} ended unexpectedly`);
  return value;
}
async function nativeCall(command) {
  child.stdin.write(`${command}\n`);
  const reply = await nativeLine();
  const [wall, cpu] = reply.split(' ').map(Number);
  if (!Number.isFinite(wall) || !Number.isFinite(cpu)) throw new Error(`bench: ${args.native} answered '${reply}'`);
  return { wall, cpu };
}
function stopNative() {
  child.stdin.end('quit\n');
}
const native = JSON.parse(await nativeLine());

const wasmPooling = () => core.nadarayaWatson(queries, x, y, { kernel: 'gaussian', w: config.w });
const wasmEpoch = () => core.trainKernelWidth(x, y, { w0: config.w, lr: 0.5, epochs: 1, leaveOneOut: true });
const jsPooling = () => nadarayaWatsonJS(queries, x, y, config.w);
const jsEpoch = () => trainEpochJS(x, y, config.w);

const results = {
  native: native.results,
  wasm: { prediction: wasmPooling(), ...wasmEpoch() },
  js: { prediction: jsPooling(), ...jsEpoch() },
};

// Agreement first: the same data set bit for bit, then the same results.
const checks = [
  maxDifference('data set x, native vs wasm', native.data.x, x),
  maxDifference('data set y, native vs wasm', native.data.y, y),
];
for (const [a, b] of [['native', 'wasm'], ['native', 'js'], ['wasm', 'js']]) {
  for (const key of ['prediction', 'w', 'loss']) {
    checks.push(maxDifference(`${key}, ${a} vs ${b}`, results[a][key], results[b][key], key === 'prediction'));
  }
}
const dataIdentical = checks[0].worst === 0 && checks[1].worst === 0;
console.log(`Agreement (tolerance ${tolerance}, relative for w and loss, absolute for predictions):`);
for (const { name, worst, ok } of checks) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(30)} max |difference| ${worst.toExponential(2)}`);
}
if (!dataIdentical || !checks.every((check) => check.ok)) {
  console.error(dataIdentical ? 'bench: the implementations disagree; not timing them'
    : 'bench: the native and wasm data sets differ; not timing');
  stopNative();
  process.exit(1);
}
if (results.native.prediction.some(Number.isNaN) || !Number.isFinite(results.native.loss[0])) {
  console.error('bench: unexpected NaN in the results; not timing');
  stopNative();
  process.exit(1);
}

// ---- timing ----

const bodies = {
  pooling: { wasm: wasmPooling, js: jsPooling },
  epoch: { wasm: wasmEpoch, js: jsEpoch },
};
const order = ['native', 'wasm', 'js'];
const medians = { cpu: {}, wall: {} };
for (const key of ['pooling', 'epoch']) {
  const samples = { native: [], wasm: [], js: [] };
  for (let round = 0; round < config.warmup + config.repetitions; round += 1) {
    for (let k = 0; k < order.length; k += 1) {
      const who = order[(round + k) % order.length];
      const sample = who === 'native' ? await nativeCall(key) : timeOnce(bodies[key][who]);
      if (round >= config.warmup) samples[who].push(sample);
    }
  }
  for (const clock of ['cpu', 'wall']) {
    medians[clock][key] = Object.fromEntries(order.map((who) => [who, median(samples[who].map((s) => s[clock]))]));
  }
}
stopNative();
if (lastResult === null) throw new Error('bench: nothing was timed');

const labels = {
  pooling: `Nadaraya-Watson ${config.n} x ${config.n}`,
  epoch: `training epoch, n = ${config.n}`,
};
const verdict = (ok) => (ok ? 'met' : 'MISSED');
const cell = (key, who) => `${medians.cpu[key][who].toFixed(2).padStart(6)} (${medians.wall[key][who].toFixed(1).padStart(5)})`;
const ratio = (key, a, b) =>
  `${(medians.cpu[key][a] / medians.cpu[key][b]).toFixed(2).padStart(5)} (${(medians.wall[key][a] / medians.wall[key][b]).toFixed(2)})`;
console.log(`\nMedians of ${config.repetitions} interleaved calls after ${config.warmup} warm-up rounds, node ${process.version}:`);
console.log('CPU time of the process in ms, wall clock in brackets; the budgets are judged on CPU time.');
console.log(`${''.padEnd(30)} ${'native'.padStart(14)} ${'wasm'.padStart(14)} ${'JS'.padStart(14)}  ` +
  `${'wasm/native'.padStart(12)} ${'JS/wasm'.padStart(12)}  budgets`);
let allMet = true;
for (const key of ['pooling', 'epoch']) {
  const { native: tn, wasm: tw, js: tj } = medians.cpu[key];
  const met = [tw / tn <= budgets.wasmOverNative, tj / tw >= budgets.jsOverWasm];
  allMet &&= met[0] && met[1];
  console.log(`${labels[key].padEnd(30)} ${cell(key, 'native')} ${cell(key, 'wasm')} ${cell(key, 'js')}  ` +
    `${ratio(key, 'wasm', 'native')} ${ratio(key, 'js', 'wasm')}  ${verdict(met[0])}, ${verdict(met[1])}`);
}
console.log(`budgets: wasm/native <= ${budgets.wasmOverNative}, JS/wasm >= ${budgets.jsOverWasm}`);
console.log(allMet ? 'All budgets met.' : 'Some budgets missed (this is a report, not a test).');
