// The translators' step benchmark: one training step of d2l's train_seq2seq,
// native against wasm under Node against PyTorch (a benchmark, not a timed
// test: it reports, it does not fail on a missed budget).
//
// One step = teacher-forced forward pass, d2l's MaskedSoftmaxCELoss summed
// over the batch, backward pass, clipping to a global norm of 1 and one Adam
// update (lr 0.005), on one fixed batch, measured
//   native   seq2seq_step_benchmark (C++: seq2seq_loss, clip_gradients, optimizer_step; one process per configuration),
//   wasm     dist/attention-core.mjs under Node through the public JS API: seq2seqStep, one call a step
//            (the parameters and Adam's moments go in and come out as typed arrays each call),
//   PyTorch  seq2seq_step_torch.py --serve, Debian's python3-torch, float64, one thread, the models of
//            tests/references/seq2seq_torch.py: zero_grad, forward, loss, l.sum().backward(), grad_clipping, Adam.step().
// All float64. Every configuration starts from the core's seeded
// initialisation (PyTorch loads the same parameters by their state_dict
// names) and the same batch (drawn by the native side: tokens from id 3, valid
// lengths 2 to the row length, <eos> last, <pad> after). Before timing, the
// script checks that the three agree: the initial parameters bit for bit in
// native and wasm, the losses of the first three steps and the parameters
// after them (native vs wasm to 1e-12, vs PyTorch to 1e-9). It aborts otherwise.
//
// Configurations: d2l 10.4's Bahdanau model (embed 32, hidden 32, 2 layers),
// one-directional and bidirectional (16 units each way), and d2l 10.7's
// Transformer (2 blocks, hidden 32, 4 heads, FFN 64), each at batch 64 with 8
// source and 8 target tokens (numbers-en-zh's vocabularies, 34 and 16), then
// batch 16 and 128, hidden 64 (embed 64 too) and length 16 one at a time;
// then the book's what-if variants at the defaults: the bidirectional model
// scoring by the scaled dot product (d2l 10.4, exercise 2), and the
// Transformer with additive scoring (10.7's exercise).
//
// FLOPs: the core's own count of the multiply-adds of a forward pass
// (bahdanau_forward_work, transformer_forward_work: the matrix products, plus
// the elementwise gate and norm work they count), times 3 for forward and
// backward, times 2 FLOPs a multiply-add.
//
// Timing as model-step.bench.mjs: samples of k steps timed together (k so
// that a sample is about --flops-per-sample, at least one step), as CPU time
// of the process (std::clock, process.cpuUsage(), time.process_time()) and on
// the wall clock; the configurations AND the implementations interleaved (a
// round takes one sample of every implementation of every configuration, the
// implementations in every order in turn), so a machine busy with something
// else slows all of them alike; medians of --repetitions samples after
// --warmup untimed rounds. Wasm on V8's optimising compiler only (--no-liftoff).
// Budgets, judged on CPU time at each architecture's default configuration:
// wasm at least 2.5x faster than PyTorch and within 1.3x of native; each
// variant at least 3x faster than PyTorch.
//
// With --translate it also times greedy translation of the batch's sources
// (the held-out evaluation's work) at the default configurations, native and
// wasm (seq2seqTranslate with sourceLens).
//
// Usage: node tests/benchmarks/seq2seq-step.bench.mjs [--native build/native/tests/benchmarks/seq2seq_step_benchmark]
//          [--dist dist/attention-core.mjs] [--python /usr/bin/python3] [--configs bahdanau,transformer,...]
//          [--warmup 3] [--repetitions 21] [--flops-per-sample 1e8] [--translate] [--no-torch]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
    native: { type: 'string', default: path.join(root, 'build/native/tests/benchmarks/seq2seq_step_benchmark') },
    dist: { type: 'string', default: path.join(root, 'dist/attention-core.mjs') },
    python: { type: 'string', default: '/usr/bin/python3' },
    configs: { type: 'string' },
    warmup: { type: 'string', default: '3' },
    repetitions: { type: 'string', default: '21' },
    'flops-per-sample': { type: 'string', default: '1e8' },
    translate: { type: 'boolean', default: false },
    'no-torch': { type: 'boolean', default: false },
  },
});

const defaults = {
  architecture: 'bahdanau', bidirectional: false, scoring: null, cell: 'gru', batch: 64, length: 8, hidden: 32, embed: 32, layers: 2,
  heads: 4, ffnHidden: 64, blocks: 2, sourceVocab: 34, targetVocab: 16,
};
const architectures = [
  ['bahdanau', {}],
  ['bidirectional', { bidirectional: true }],
  ['transformer', { architecture: 'transformer' }],
];
// d2l 10.4, exercise 2: the bidirectional model with the scaled dot product in place of additive attention;
// exercise 1: with nn.LSTM in place of nn.GRU;
// d2l 10.7's exercise: the Transformer's heads scoring additively. (null: the architecture's own scoring.)
const variants = [['bidirectional dot', { bidirectional: true, scoring: 'dot' }],
  ['bidirectional lstm', { bidirectional: true, cell: 'lstm' }],
  ['transformer additive', { architecture: 'transformer', scoring: 'additive' }]];
const changes = [['', {}], [' batch 16', { batch: 16 }], [' batch 128', { batch: 128 }],
  [' hidden 64', { hidden: 64, embed: 64 }], [' length 16', { length: 16 }]];
// Defaults first, then each change for each architecture.
const allConfigs = [
  ...changes.flatMap(([suffix, change]) =>
    architectures.map(([name, arch]) => ({ name: `${name}${suffix}`, ...defaults, ...arch, ...change }))),
  ...variants.map(([name, variant]) => ({ name, ...defaults, ...variant })),
];
const chosen = args.configs ? args.configs.split(',') : allConfigs.map((c) => c.name);
for (const name of chosen) {
  if (!allConfigs.some((c) => c.name === name)) {
    console.error(`seq2seq bench: unknown configuration '${name}' (${allConfigs.map((c) => c.name).join(', ')})`);
    process.exit(2);
  }
}
const configs = allConfigs.filter((c) => chosen.includes(c.name));
const lr = 0.005;
const clip = 1;
const warmup = Number(args.warmup);
const repetitions = Number(args.repetitions);
const flopsPerSample = Number(args['flops-per-sample']);
if (!(Number.isInteger(warmup) && warmup >= 0 && Number.isInteger(repetitions) && repetitions >= 1 && flopsPerSample > 0)) {
  console.error('seq2seq bench: --warmup must be a whole number >= 0, --repetitions one >= 1, --flops-per-sample > 0');
  process.exit(2);
}
const budgets = { wasmOverNative: 1.3, torchOverWasm: 2.5, variantTorchOverWasm: 3 };
const tolerance = { wasm: 1e-12, torch: 1e-9 }; // |a - b| <= tolerance * max(1, |a|)
const withTorch = !args['no-torch'];

for (const file of [args.native, args.dist, ...(withTorch ? [args.python] : [])]) {
  if (!existsSync(file)) {
    console.error(`seq2seq bench: ${file} is missing; build first (cmake --build --preset native --target seq2seq_step_benchmark && ` +
      'cmake --build --preset web), and apt-get install python3-torch');
    process.exit(2);
  }
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
    if (done) throw new Error(`seq2seq bench: ${label} ended unexpectedly`);
    return value;
  };
  return {
    line,
    send: (text) => child.stdin.write(`${text}\n`),
    async timed(request) {
      child.stdin.write(`${request}\n`);
      const reply = await line();
      const [wall, cpu] = reply.split(' ').map(Number);
      if (!Number.isFinite(wall) || !Number.isFinite(cpu)) throw new Error(`seq2seq bench: ${label} answered '${reply}'`);
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

// ---- setting up every configuration, checking that the implementations agree ----

const { loadAttentionCore } = await import(pathToFileURL(path.resolve(args.dist)).href);
const core = await loadAttentionCore();
for (const name of ['seq2seqInit', 'seq2seqStep', 'seq2seqTranslate']) {
  if (typeof core[name] !== 'function') {
    console.error(`seq2seq bench: ${args.dist} has no ${name}; build the web preset from a tree with the translators' JS API`);
    process.exit(2);
  }
}
const torch = withTorch ? serving(args.python, [path.join(here, 'seq2seq_step_torch.py'), '--serve'], 'seq2seq_step_torch.py') : null;
const loadStart = os.loadavg();
const started = performance.now();
console.log(`Translators' step benchmark: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
  `load average at start ${loadStart.map((l) => l.toFixed(2)).join(' ')}`);
console.log(`One d2l train_seq2seq step (Adam lr ${lr}, clipping at ${clip}) on a fixed batch, float64; ` +
  `medians of ${repetitions} interleaved samples after ${warmup} warm-up rounds.`);

const flatParams = (m) => Float64Array.from(Object.values(m.params).flatMap((p) => Array.from(p)));
let torchInfo = null;
const runs = [];
for (const [index, c] of configs.entries()) {
  const native = serving(path.resolve(args.native), [
    '--architecture', c.architecture, '--bidirectional', c.bidirectional ? 1 : 0, ...(c.scoring ? ['--scoring', c.scoring] : []), '--cell', c.cell,
    '--batch', c.batch, '--length', c.length,
    '--hidden', c.hidden, '--embed', c.embed, '--layers', c.layers, '--heads', c.heads, '--ffn-hidden', c.ffnHidden,
    '--blocks', c.blocks, '--source-vocab', c.sourceVocab, '--target-vocab', c.targetVocab, '--lr', lr, '--clip', clip, '--serve',
  ].map(String), 'seq2seq_step_benchmark');
  const first = JSON.parse(await native.line());
  if (torch) {
    torch.send(JSON.stringify({ ...first, paramsAfter: undefined, losses: undefined, tokenLosses: undefined }));
    torchInfo = JSON.parse(await torch.line());
  }
  // wasm: the same configuration (sizes given directly, no task), initialisation and batch; three steps.
  const config = { ...first.config, task: null };
  let model = core.seq2seqInit(config);
  const initial = flatParams(model);
  const batch = Object.fromEntries(['source', 'sourceLens', 'targetIn', 'targetOut', 'targetLens']
    .map((key) => [key, Int32Array.from(first[key])]));
  const stepOptions = { optimizer: 'adam', lr, clip };
  const wasmLosses = [];
  for (let s = 0; s < 3; s += 1) {
    const out = core.seq2seqStep(model, batch, stepOptions);
    model = out.model;
    wasmLosses.push(out.loss);
  }
  const nativeInitial = Float64Array.from(Object.values(first.params).flat());
  const checks = [
    maxDifference('initial parameters, native vs wasm', nativeInitial, initial, 0),
    maxDifference('token losses of 3 steps, native vs wasm', first.tokenLosses, wasmLosses, tolerance.wasm),
    maxDifference('parameters after, native vs wasm', first.paramsAfter, flatParams(model), tolerance.wasm),
    ...(torch ? [
      maxDifference('losses of 3 steps, native vs PyTorch', first.losses, torchInfo.losses, tolerance.torch),
      maxDifference('parameters after, native vs PyTorch', first.paramsAfter, torchInfo.paramsAfter, tolerance.torch),
    ] : []),
  ];
  const flops = 6 * first.forwardWork;
  const calls = Math.max(1, Math.round(flopsPerSample / flops));
  console.log(`\n${c.name}: batch ${c.batch}, length ${c.length}, hidden ${c.hidden}` +
    `${c.architecture === 'bahdanau' ? `, embed ${c.embed}, ${c.layers} ${c.cell.toUpperCase()} layers${c.bidirectional ? ', bidirectional' : ''}`
      : `, ${c.heads} heads, FFN ${c.ffnHidden}, ${c.blocks} blocks`}, ${first.config.scoring} scoring; ${(flops / 1e6).toFixed(1)} MFLOP a step, ${calls} step${calls > 1 ? 's' : ''} a sample`);
  for (const { name, worst, ok, limit, note } of checks) {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(42)} max |difference| ${note ?? worst.toExponential(2)}  (<= ${limit})`);
  }
  if (!checks.every((check) => check.ok)) {
    console.error('seq2seq bench: the implementations disagree; not timing');
    native.stop();
    torch?.stop();
    process.exit(1);
  }
  const state = { model };
  const bodies = {
    wasm: (k) => {
      let loss = 0;
      for (let s = 0; s < k; s += 1) {
        const out = core.seq2seqStep(state.model, batch, stepOptions);
        state.model = out.model;
        loss = out.loss;
      }
      return loss;
    },
    translate: (k) => {
      let last = null;
      for (let s = 0; s < k; s += 1) last = core.seq2seqTranslate(state.model, batch.source, { sourceLens: batch.sourceLens });
      return last;
    },
  };
  const jobs = {
    native: () => native.timed(`step ${calls}`),
    wasm: async () => timeCalls(bodies.wasm, calls),
    ...(torch ? { torch: () => torch.timed(`step ${calls} ${index}`) } : {}),
  };
  const timesTranslation = args.translate && c.batch === defaults.batch && c.length === defaults.length && c.hidden === defaults.hidden;
  const translateCalls = Math.max(1, Math.round(calls * 2));
  if (timesTranslation) {
    jobs['native translate'] = () => native.timed(`translate ${translateCalls}`);
    jobs['wasm translate'] = async () => timeCalls(bodies.translate, translateCalls);
  }
  runs.push({ c, flops, calls, translateCalls, native, jobs, samples: Object.fromEntries(Object.keys(jobs).map((w) => [w, []])) });
}

// ---- the timing: every round a sample of each implementation of each configuration ----

for (let round = 0; round < warmup + repetitions; round += 1) {
  const configOrder = round % 2 ? [...runs].reverse() : runs;
  for (const run of configOrder) {
    const who = Object.keys(run.jobs);
    const orders = permutations(who.filter((w) => !w.includes('translate')));
    const order = [...orders[round % orders.length], ...who.filter((w) => w.includes('translate'))];
    for (const w of order) {
      const sample = await run.jobs[w]();
      if (round >= warmup) run.samples[w].push(sample);
    }
  }
}
for (const run of runs) run.native.stop();
torch?.stop();
if (lastResult === null) throw new Error('seq2seq bench: nothing was timed');

// ---- the table ----

const loadEnd = os.loadavg();
const digits = (v) => (v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(1));
const who = ['native', 'wasm', ...(torch ? ['torch'] : [])];
const names = { native: 'native', wasm: 'wasm', torch: 'PyTorch' };
console.log(`\nOne step: ms per step, CPU time (wall clock); GFLOP/s from CPU time` +
  `${torchInfo ? `; PyTorch ${torchInfo.torch} (${torchInfo.threads} thread)` : ''}.`);
const ratioColumns = [['wasm', 'native'], ...(torch ? [['torch', 'wasm']] : [])];
console.log(`${'configuration'.padEnd(27)}${'MFLOP'.padStart(7)}${who.map((w) => names[w].padStart(18)).join('')}` +
  `${ratioColumns.map(([a, b]) => `${names[a]}/${names[b]}`.padStart(14)).join('')}   GFLOP/s: ${who.map((w) => names[w]).join(' / ')}`);
const verdicts = [];
const medians = new Map();
for (const run of runs) {
  const m = Object.fromEntries(Object.keys(run.samples).map((w) => {
    const per = w.includes('translate') ? run.translateCalls : run.calls;
    return [w, { cpu: median(run.samples[w].map((s) => s.cpu)) / per, wall: median(run.samples[w].map((s) => s.wall)) / per }];
  }));
  medians.set(run, m);
  const cell = (w) => ` ${digits(m[w].cpu).padStart(7)} (${digits(m[w].wall).padStart(7)})`;
  const ratio = (a, b) => `${(m[a].cpu / m[b].cpu).toFixed(2)} (${(m[a].wall / m[b].wall).toFixed(2)})`;
  const gflops = who.map((w) => (run.flops / 1e6 / m[w].cpu).toFixed(2)).join(' / ');
  console.log(`${run.c.name.padEnd(27)}${(run.flops / 1e6).toFixed(1).padStart(7)}${who.map(cell).join('')}` +
    `${ratioColumns.map(([a, b]) => ratio(a, b).padStart(14)).join('')}   ${gflops}`);
  const variant = variants.some(([name]) => name === run.c.name);
  if (!run.c.name.includes(' ') || variant) {
    verdicts.push({
      name: run.c.name, wasmOverNative: m.wasm.cpu / m.native.cpu, torchOverWasm: m.torch ? m.torch.cpu / m.wasm.cpu : null,
      torchBudget: variant ? budgets.variantTorchOverWasm : budgets.torchOverWasm,
    });
  }
}

// How the cost grows: ms per step against the default, per architecture and size.
console.log('\nScaling: CPU ms per step relative to each architecture\'s default (native / wasm / PyTorch)');
for (const [arch] of architectures) {
  const base = runs.find((r) => r.c.name === arch);
  if (!base) continue;
  const mb = medians.get(base);
  const parts = runs.filter((r) => r.c.name.startsWith(`${arch} `)).map((r) => {
    const m = medians.get(r);
    return `${r.c.name.slice(arch.length + 1)}: ${who.map((w) => (m[w].cpu / mb[w].cpu).toFixed(2)).join(' / ')} (work x${(r.flops / base.flops).toFixed(2)})`;
  });
  if (parts.length) console.log(`  ${arch.padEnd(14)} ${parts.join(';  ')}`);
}

if (args.translate) {
  console.log('\nGreedy translation of the batch\'s sources (the held-out evaluation\'s work): ms per call, CPU time (wall clock)');
  for (const run of runs) {
    const m = medians.get(run);
    if (!m['native translate']) continue;
    const cell = (w) => ` ${digits(m[w].cpu).padStart(7)} (${digits(m[w].wall).padStart(7)})`;
    console.log(`  ${run.c.name.padEnd(14)} native${cell('native translate')}   wasm${cell('wasm translate')}   ` +
      `wasm/native ${(m['wasm translate'].cpu / m['native translate'].cpu).toFixed(2)}; a step: native ${digits(m.native.cpu)}, wasm ${digits(m.wasm.cpu)}`);
  }
}

console.log(`\nload average at the end ${loadEnd.map((l) => l.toFixed(2)).join(' ')}; the run took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
let allMet = true;
for (const v of verdicts) {
  const a = v.wasmOverNative <= budgets.wasmOverNative;
  const b = v.torchOverWasm === null || v.torchOverWasm >= v.torchBudget;
  allMet &&= a && b;
  console.log(`Budgets, ${v.name} (CPU time, seq2seqStep a call): wasm/native ${v.wasmOverNative.toFixed(2)} <= ${budgets.wasmOverNative}: ${a ? 'met' : 'MISSED'}` +
    `${v.torchOverWasm === null ? '' : `; PyTorch/wasm ${v.torchOverWasm.toFixed(2)} >= ${v.torchBudget}: ${b ? 'met' : 'MISSED'}`}.`);
}
console.log(allMet ? 'All budgets met.' : 'A budget missed (this is a report, not a test).');
