// The model-step benchmark: one Adam step of the trainable attention model,
// native against wasm under Node against PyTorch (a benchmark, not a timed
// test: it reports, it does not fail on a missed budget).
//
// One step = forward pass, mean cross-entropy, backward pass and one Adam
// update (lr 0.01) on one batch of the reverse task, measured
//   native   model_step_benchmark (C++, attention_model_loss + optimizer_step; one process per configuration),
//   wasm     dist/attention-core.mjs under Node through the public JS API: attentionModelStep, one call a step
//            (the parameters and Adam's moments go in and come out as typed arrays each call),
//   loop     the same module's attentionModelTrain, k steps in one call, at least 16 (a new task batch each step,
//            drawn by the core; no held-out evaluation inside the timing): the step without the per-call crossing,
//   core     (with --wasm-core only) the C++ step of model_step_benchmark.cpp compiled to wasm by hand with em++
//            (README.md), k steps a call of its model_step_run: the core with no JS API in between,
//   PyTorch  model_step_torch.py, Debian's python3-torch, float64, one thread, d2l's model as
//            tests/references/make_model_references.py writes it: zero_grad, loss.backward(), Adam.step().
// All float64. Every configuration starts from the core's seeded initialisation
// (PyTorch is handed the same parameters) and the same batch; before timing, the
// script checks that the three agree: the same initial parameters and batch in
// native and wasm (bit for bit), the losses of the first three steps and the
// parameters after them (native vs wasm to 1e-12, vs PyTorch to 1e-9). It aborts
// otherwise.
//
// Configurations: the default (vocab 10, length 8, hidden 32, heads 4, one
// attention-only block, batch 32), then length 16, 32, 64, hidden 64, 128, batch
// 8, 128 one at a time, the full encoder block (ffnHidden 64) at the default,
// and the positions' what-if variants at the default: learned (a length x
// hidden parameter) and none (the same FLOPs; budget: 3x PyTorch).
//
// FLOPs of one step, counted analytically (matrix products only, a multiply-add
// = 2 FLOPs; the softmaxes, LayerNorms, ReLU, cross-entropy and Adam's update are
// O(B L (h L + H + V) + P): about 4% more at the default, counting an exp as 20). With R = B L rows (B
// batch, L length), H hidden, V vocab, F ffnHidden, per block:
//   forward   Q, K, V, O projections 4 * 2 R H^2, scores and weights x values
//             2 * 2 B L^2 H (the heads split H), FFN 2 * 2 R H F;  readout 2 R H V
//   backward  twice the forward: every product gives a gradient of its weight
//             and of its input (the input's of Wq/Wk/Wv too: it feeds the embedding)
//   step = 3 x forward = blocks * (24 R H^2 + 12 B L^2 H + 12 R H F) + 6 R H V
// At the default: 24*256*32^2 + 12*32*8^2*32 + 6*256*32*10 = 7.57 MFLOP.
//
// Timing as bench.mjs: samples of k steps timed together (k so that a sample
// is about 1.5e8 FLOPs, at least one step), as CPU time of the process
// (std::clock, process.cpuUsage(), time.process_time()) and on the wall clock;
// the implementations interleaved, one sample of each a round, every order in
// turn; medians of --repetitions samples after --warmup untimed rounds. Wasm is
// timed on V8's optimising compiler only (--no-liftoff). Budgets, judged on
// CPU time at the default configuration: the wasm step (the loop, as the page
// trains; one attentionModelStep call a step with --no-loop) within 1.3x of
// native, and at least 2.5x faster than PyTorch.
//
// Usage: node tests/benchmarks/model-step.bench.mjs [--native build/native/tests/benchmarks/model_step_benchmark]
//          [--dist dist/attention-core.mjs] [--python /usr/bin/python3] [--configs default,length16,...]
//          [--wasm-core build/parts/model_step_core.cjs (a diagnostic column; README.md)]
//          [--warmup 3] [--repetitions 21] [--flops-per-sample 1.5e8] [--no-loop]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import readline from 'node:readline';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';

v8.setFlagsFromString('--no-liftoff'); // before the module is compiled: see bench.mjs

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values: args } = parseArgs({
  options: {
    native: { type: 'string', default: path.join(root, 'build/native/tests/benchmarks/model_step_benchmark') },
    dist: { type: 'string', default: path.join(root, 'dist/attention-core.mjs') },
    python: { type: 'string', default: '/usr/bin/python3' },
    'wasm-core': { type: 'string' },
    configs: { type: 'string' },
    warmup: { type: 'string', default: '3' },
    repetitions: { type: 'string', default: '21' },
    'flops-per-sample': { type: 'string', default: '1.5e8' },
    'no-loop': { type: 'boolean', default: false },
  },
});

const defaults = { vocab: 10, length: 8, hidden: 32, heads: 4, blocks: 1, ffnHidden: 0, batch: 32, positional: 'sinusoidal' };
const allConfigs = [
  ['default', {}],
  ['length16', { length: 16 }], ['length32', { length: 32 }], ['length64', { length: 64 }],
  ['hidden64', { hidden: 64 }], ['hidden128', { hidden: 128 }],
  ['batch8', { batch: 8 }], ['batch128', { batch: 128 }],
  ['ffn64', { ffnHidden: 64 }],
  // The positions' what-ifs (d2l 10.6, exercise 2; order-blindness without them).
  ['learned', { positional: 'learned' }], ['none', { positional: 'none' }],
];
const chosen = args.configs ? args.configs.split(',') : allConfigs.map(([name]) => name);
for (const name of chosen) {
  if (!allConfigs.some(([n]) => n === name)) {
    console.error(`model-step bench: unknown configuration '${name}' (${allConfigs.map(([n]) => n).join(', ')})`);
    process.exit(2);
  }
}
const configs = allConfigs.filter(([name]) => chosen.includes(name)).map(([name, change]) => ({ name, ...defaults, ...change }));
const lr = 0.01;
const taskSeed = 0;
const warmup = Number(args.warmup);
const repetitions = Number(args.repetitions);
const flopsPerSample = Number(args['flops-per-sample']);
if (!(Number.isInteger(warmup) && warmup >= 0 && Number.isInteger(repetitions) && repetitions >= 1 && flopsPerSample > 0)) {
  console.error('model-step bench: --warmup must be a whole number >= 0, --repetitions one >= 1, --flops-per-sample > 0');
  process.exit(2);
}
const budgets = { wasmOverNative: 1.3, torchOverWasm: 2.5, whatIfTorchOverWasm: 3 };
// Each attentionModelTrain call ends with a forward pass over the next batch
// (the check that the last step left the model finite): a third of a step's
// work, which at one step a call (length 64) was timed as 40% more per step.
// The loop's samples take at least this many steps, so the check adds about 2%,
// as in the page's calls of many steps.
const minLoopSteps = 16;
const tolerance = { wasm: 1e-12, torch: 1e-9 }; // |a - b| <= tolerance * max(1, |a|)

for (const file of [args.native, args.dist, args.python]) {
  if (!existsSync(file)) {
    console.error(`model-step bench: ${file} is missing; build first (cmake --build --preset native --target model_step_benchmark && cmake --build --preset web), ` +
      'and apt-get install python3-torch');
    process.exit(2);
  }
}

// Matrix-product FLOPs of one step (forward + backward = 3 forward passes); see the header.
function stepFlops(c) {
  const rows = c.batch * c.length;
  const perBlock = 24 * rows * c.hidden ** 2 + 12 * c.batch * c.length ** 2 * c.hidden + 12 * rows * c.hidden * c.ffnHidden;
  return c.blocks * perBlock + 6 * rows * c.hidden * c.vocab;
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
}

function maxDifference(name, a, b, limit) {
  if (a.length !== b.length) return { name, worst: Infinity, ok: false, limit, note: `lengths ${a.length} vs ${b.length}` };
  let worst = 0;
  let ok = true;
  for (let i = 0; i < a.length; i += 1) {
    const difference = Math.abs(a[i] - b[i]);
    if (!(difference <= limit * Math.max(1, Math.abs(a[i])))) ok = false;
    if (!(difference <= worst)) worst = difference;
  }
  return { name, worst, ok, limit };
}

// A line-oriented child process: "step k" -> "<wall ms> <cpu ms>".
function serving(command, argv, label) {
  const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const line = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`model-step bench: ${label} ended unexpectedly`);
    return value;
  };
  return {
    line,
    send: (text) => child.stdin.write(`${text}\n`),
    async steps(calls) {
      child.stdin.write(`step ${calls}\n`);
      const reply = await line();
      const [wall, cpu] = reply.split(' ').map(Number);
      if (!Number.isFinite(wall) || !Number.isFinite(cpu)) throw new Error(`model-step bench: ${label} answered '${reply}'`);
      return { wall, cpu };
    },
    stop: () => child.stdin.end('quit\n'),
  };
}

let lastResult = null;
function timeCalls(body, calls) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  lastResult = body(calls);
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const permutations = (list) => (list.length <= 1 ? [list]
  : list.flatMap((first, i) => permutations([...list.slice(0, i), ...list.slice(i + 1)]).map((rest) => [first, ...rest])));

// ---- the run ----

const { loadAttentionCore } = await import(pathToFileURL(path.resolve(args.dist)).href);
const core = await loadAttentionCore();
for (const name of ['attentionModelInit', 'attentionModelStep', 'attentionTaskBatch', ...(args['no-loop'] ? [] : ['attentionModelTrain'])]) {
  if (typeof core[name] !== 'function') {
    console.error(`model-step bench: ${args.dist} has no ${name}; build the web preset from a tree with the model's JS API`);
    process.exit(2);
  }
}
// The core alone in wasm (optional): its factory, from the em++ build of model_step_benchmark.cpp.
if (args['wasm-core'] && !existsSync(args['wasm-core'])) {
  console.error(`model-step bench: ${args['wasm-core']} is missing; see README.md for the em++ command`);
  process.exit(2);
}
if (args['wasm-core'] && configs.some((c) => c.positional !== 'sinusoidal')) {
  console.error('model-step bench: --wasm-core times sinusoidal positions only; leave learned and none out of --configs');
  process.exit(2);
}
const wasmCore = args['wasm-core'] ? await createRequire(import.meta.url)(path.resolve(args['wasm-core']))() : null;
const torch = serving(args.python, [path.join(here, 'model_step_torch.py'), '--serve'], 'model_step_torch.py');
const who = ['native', ...(wasmCore ? ['core'] : []), ...(args['no-loop'] ? [] : ['loop']), 'wasm', 'torch'];
const names = { native: 'native', core: 'wasm core', loop: 'wasm loop', wasm: 'wasm', torch: 'PyTorch' };
const orders = permutations(who);
const loadStart = os.loadavg();
const started = performance.now();

console.log(`Model-step benchmark: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
  `load average at start ${loadStart.map((l) => l.toFixed(2)).join(' ')}`);
console.log(`One Adam step (lr ${lr}) on a batch of the reverse task (seed ${taskSeed}), float64; ` +
  `medians of ${repetitions} interleaved samples after ${warmup} warm-up rounds.`);

const results = [];
let torchInfo = null;
for (const c of configs) {
  const flops = stepFlops(c);
  const calls = Math.max(1, Math.round(flopsPerSample / flops));
  const stepsOf = (w) => (w === 'loop' ? Math.max(calls, minLoopSteps) : calls);
  const native = serving(path.resolve(args.native), [
    '--vocab', c.vocab, '--length', c.length, '--hidden', c.hidden, '--heads', c.heads, '--blocks', c.blocks,
    '--ffn-hidden', c.ffnHidden, '--batch', c.batch, '--positional', c.positional, '--task-seed', taskSeed, '--lr', lr, '--serve',
  ].map(String), 'model_step_benchmark');
  const first = JSON.parse(await native.line());
  torch.send(JSON.stringify({ config: first.config, batch: first.batch, lr, tokens: first.tokens, targets: first.targets, params: first.params }));
  const torchFirst = JSON.parse(await torch.line());
  torchInfo = torchFirst;

  // wasm: the same initialisation and batch, then three steps.
  const modelConfig = {
    vocab: c.vocab, length: c.length, hidden: c.hidden, heads: c.heads, blocks: c.blocks, ffnHidden: c.ffnHidden, positional: c.positional,
  };
  let model = core.attentionModelInit(modelConfig);
  const data = core.attentionTaskBatch({ task: 'reverse', batch: c.batch, length: c.length, vocab: c.vocab, seed: taskSeed });
  const stepOptions = { batch: c.batch, optimizer: 'adam', lr };
  const flatParams = (m) => Float64Array.from(Object.values(m.params).flatMap((p) => Array.from(p)));
  const initial = flatParams(model);
  const wasmLosses = [];
  for (let s = 0; s < 3; s += 1) {
    const out = core.attentionModelStep(model, data.tokens, data.targets, stepOptions);
    model = out.model;
    wasmLosses.push(out.loss);
  }
  const coreLosses = [];
  if (wasmCore) {
    if (!wasmCore._model_step_setup(c.vocab, c.length, c.hidden, c.heads, c.blocks, c.ffnHidden, c.batch, lr)) {
      throw new Error(`model-step bench: ${args['wasm-core']} refused the configuration`);
    }
    for (let s = 0; s < 3; s += 1) coreLosses.push(wasmCore._model_step_run(1));
  }
  const nativeInitial = Float64Array.from(Object.values(first.params).flat());
  const checks = [
    maxDifference('initial parameters, native vs wasm', nativeInitial, initial, 0),
    maxDifference('tokens, native vs wasm', first.tokens, Array.from(data.tokens), 0),
    maxDifference('targets, native vs wasm', first.targets, Array.from(data.targets), 0),
    maxDifference('losses of 3 steps, native vs wasm', first.losses, wasmLosses, tolerance.wasm),
    maxDifference('parameters after, native vs wasm', first.paramsAfter, flatParams(model), tolerance.wasm),
    ...(wasmCore ? [maxDifference('losses of 3 steps, native vs wasm core', first.losses, coreLosses, tolerance.wasm)] : []),
    maxDifference('losses of 3 steps, native vs PyTorch', first.losses, torchFirst.losses, tolerance.torch),
    maxDifference('parameters after, native vs PyTorch', first.paramsAfter, torchFirst.paramsAfter, tolerance.torch),
  ];
  const label = `${c.name}: vocab ${c.vocab}, length ${c.length}, hidden ${c.hidden}, heads ${c.heads}, ` +
    `blocks ${c.blocks}, ffnHidden ${c.ffnHidden}, batch ${c.batch}, ${c.positional} positions; ${(flops / 1e6).toFixed(2)} MFLOP a step, ${calls} step${calls > 1 ? 's' : ''} a sample` +
    (args['no-loop'] || stepsOf('loop') === calls ? '' : ` (the loop ${stepsOf('loop')})`);
  console.log(`\n${label}`);
  for (const { name, worst, ok, limit, note } of checks) {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(38)} max |difference| ${note ?? worst.toExponential(2)}  (<= ${limit})`);
  }
  if (!checks.every((check) => check.ok)) {
    console.error('model-step bench: the implementations disagree; not timing');
    native.stop();
    torch.stop();
    process.exit(1);
  }

  // The train loop: k steps in one call, no held-out evaluation inside (evalEvery 10000, the API's largest, past the steps timed;
  // heldOut 1: one sequence's forward pass at the end of each call), its own batches from the task seed.
  let loopModel = model;
  const bodies = {
    core: (k) => wasmCore._model_step_run(k),
    wasm: (k) => {
      let loss = 0;
      for (let s = 0; s < k; s += 1) {
        const out = core.attentionModelStep(model, data.tokens, data.targets, stepOptions);
        model = out.model;
        loss = out.loss;
      }
      return loss;
    },
    loop: (k) => {
      const out = core.attentionModelTrain(loopModel, {
        task: 'reverse', steps: k, batch: c.batch, optimizer: 'adam', lr, seed: taskSeed, evalEvery: 10000, heldOut: 1,
      });
      loopModel = out.model;
      return out.loss;
    },
  };
  const samples = Object.fromEntries(who.map((w) => [w, []]));
  for (let round = 0; round < warmup + repetitions; round += 1) {
    for (const w of orders[round % orders.length]) {
      const sample = w === 'native' ? await native.steps(calls) : w === 'torch' ? await torch.steps(calls) : timeCalls(bodies[w], stepsOf(w));
      if (round >= warmup) samples[w].push(sample);
    }
  }
  native.stop();
  const m = Object.fromEntries(who.map((w) => [w, {
    cpu: median(samples[w].map((s) => s.cpu)) / stepsOf(w),
    wall: median(samples[w].map((s) => s.wall)) / stepsOf(w),
  }]));
  results.push({ c, flops, calls, m });
}
torch.stop();
if (lastResult === null) throw new Error('model-step bench: nothing was timed');

// ---- the table ----
const loadEnd = os.loadavg();
const digits = (v) => (v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(1));
const changeOf = (c) => (c.name === 'default' ? 'default' : c.name.replace(/(\D+)(\d+)/, (_, k, v) => `${k === 'ffn' ? 'ffnHidden' : k} ${v}`));
console.log(`\nOne Adam step: ms per step, CPU time (wall clock); GFLOP/s from CPU time; ` +
  `PyTorch ${torchInfo?.torch} (${torchInfo?.threads} thread, Adam foreach=${torchInfo?.foreach}).`);
const ratioColumns = [['wasm', 'native'], ['torch', 'wasm'], ...(wasmCore ? [['core', 'native']] : []), ...(args['no-loop'] ? [] : [['loop', 'native'], ['torch', 'loop']])];
const short = { native: 'native', core: 'core', loop: 'loop', wasm: 'wasm', torch: 'PyTorch' };
console.log(`${'configuration'.padEnd(13)}${'MFLOP'.padStart(7)}${who.map((w) => names[w].padStart(18)).join('')}` +
  `${ratioColumns.map(([a, b]) => `${short[a]}/${short[b]}`.padStart(13)).join('')}   GFLOP/s: ${who.map((w) => short[w]).join(' / ')}`);
let verdict = null;
for (const { c, flops, m } of results) {
  const cell = (w) => ` ${digits(m[w].cpu).padStart(7)} (${digits(m[w].wall).padStart(7)})`;
  const ratio = (a, b) => `${(m[a].cpu / m[b].cpu).toFixed(2)} (${(m[a].wall / m[b].wall).toFixed(2)})`;
  const gflops = who.map((w) => (flops / 1e6 / m[w].cpu).toFixed(1)).join(' / ');
  console.log(`${changeOf(c).padEnd(13)}${(flops / 1e6).toFixed(2).padStart(7)}${who.map(cell).join('')}` +
    `${ratioColumns.map(([a, b]) => ratio(a, b).padStart(13)).join('')}   ${gflops}`);
  if (c.name === 'default') {
    verdict = {
      wasmOverNative: m.wasm.cpu / m.native.cpu, torchOverWasm: m.torch.cpu / m.wasm.cpu,
      loopOverNative: m.loop ? m.loop.cpu / m.native.cpu : null, torchOverLoop: m.loop ? m.torch.cpu / m.loop.cpu : null,
      coreOverNative: m.core ? m.core.cpu / m.native.cpu : null,
    };
  }
}
console.log(`\nload average at the end ${loadEnd.map((l) => l.toFixed(2)).join(' ')}; the run took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
console.log(`wasm = one attentionModelStep call a step (the JS API); wasm loop = attentionModelTrain, k steps a call${
  wasmCore ? '; wasm core = the C++ step compiled to wasm by hand, no JS API' : ''}.`);
if (verdict) {
  // The step is judged where it runs as the page runs it: the loop in the core
  // (attentionModelTrain); one attentionModelStep call a step adds the JS
  // API's round trip of the whole model, reported beside it.
  const judged = verdict.loopOverNative !== null
    ? { name: 'wasm loop (attentionModelTrain)', overNative: verdict.loopOverNative, torchOver: verdict.torchOverLoop }
    : { name: 'wasm (attentionModelStep)', overNative: verdict.wasmOverNative, torchOver: verdict.torchOverWasm };
  const a = judged.overNative <= budgets.wasmOverNative;
  const b = judged.torchOver >= budgets.torchOverWasm;
  console.log(`Budgets at the default configuration (CPU time, ${judged.name}): ` +
    `wasm/native ${judged.overNative.toFixed(2)} <= ${budgets.wasmOverNative}: ${a ? 'met' : 'MISSED'}; ` +
    `PyTorch/wasm ${judged.torchOver.toFixed(2)} >= ${budgets.torchOverWasm}: ${b ? 'met' : 'MISSED'}.`);
  if (verdict.loopOverNative !== null) {
    console.log(`  with one attentionModelStep call a step: wasm/native ${verdict.wasmOverNative.toFixed(2)}, PyTorch/wasm ${verdict.torchOverWasm.toFixed(2)}.`);
  }
  if (verdict.coreOverNative !== null) console.log(`  the core alone in wasm: core/native ${verdict.coreOverNative.toFixed(2)}.`);
  console.log(a && b ? 'Both budgets met.' : 'A budget missed (this is a report, not a test).');
}
// The what-if variants, judged as the default is: the loop where it ran.
for (const { c, m } of results.filter((r) => r.c.positional !== defaults.positional)) {
  const wasm = m.loop ?? m.wasm;
  const ratio = m.torch.cpu / wasm.cpu;
  console.log(`What-if budget, ${c.positional} positions (CPU time, ${m.loop ? 'wasm loop' : 'wasm'}): PyTorch/wasm ${ratio.toFixed(2)} >= ` +
    `${budgets.whatIfTorchOverWasm}: ${ratio >= budgets.whatIfTorchOverWasm ? 'met' : 'MISSED'}.`);
}
