// Two builds of the JS API (dist/attention-core.mjs) against each other, for
// a change of compile or link flags, or of how the core is cut into modules:
// the hot calls of the page and of the models (small pooling calls as a
// redraw makes them, pooling and the weights at n = 2000, the encoder's and
// the translators' training), interleaved (A then B, B then A in turn), CPU
// time of each call, medians of the rounds and the ratio B/A. Wasm is timed
// on V8's optimising compiler only: run it with node --no-liftoff.
//
// Usage: node --no-liftoff tests/benchmarks/core-builds.bench.mjs A/attention-core.mjs B/attention-core.mjs
//          [rounds, 21] (AB_ONLY=<regexp> runs only the cases it matches)
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [aPath, bPath, roundsArg] = process.argv.slice(2);
if (!aPath || !bPath) throw new Error('usage: core-builds.bench.mjs A/attention-core.mjs B/attention-core.mjs [rounds]');
const rounds = Number(roundsArg ?? 21);
const load = async (file) => (await import(pathToFileURL(path.resolve(file)).href)).loadAttentionCore();
const A = await load(aPath);
const B = await load(bPath);
const cases = {
  'nadarayaWatson n=50, 200 calls': (core) => {
    const { x, y } = core.makeDataset({ n: 50, seed: 1 });
    const q = Float64Array.from({ length: 50 }, (_, i) => (5 * i) / 50);
    return () => { for (let i = 0; i < 200; i += 1) core.nadarayaWatson(q, x, y, { kernel: 'gaussian', w: 0.5 }); };
  },
  'makeDataset + attentionWeights n=50, 200 calls': (core) => () => {
    for (let i = 0; i < 200; i += 1) { const { x } = core.makeDataset({ n: 50, seed: i }); core.attentionWeights(x, x, { w: 1 }); }
  },
  'multiHeadAttention 1x10x10 h=20, 200 calls': (core) => {
    const r = (n, seed) => core.randomNormal(n, { seed });
    const args = { queries: r(200, 1), keys: r(200, 2), values: r(200, 3), shape: { batch: 1, nq: 10, nk: 10, hidden: 20, heads: 5 },
      Wq: r(400, 4), Wk: r(400, 5), Wv: r(400, 6), Wo: r(400, 7), validLens: null, headMask: null };
    return () => { for (let i = 0; i < 200; i += 1) core.multiHeadAttention(args); };
  },
  'attentionModelStep default, 10 calls': (core) => {
    let model = core.attentionModelInit({});
    const { tokens, targets } = core.attentionTaskBatch({});
    return () => { for (let i = 0; i < 10; i += 1) model = core.attentionModelStep(model, tokens, targets).model; };
  },
  'nadarayaWatson n=2000': (core) => {
    const { x, y } = core.makeDataset({ n: 2000, seed: 1 });
    const q = Float64Array.from({ length: 2000 }, (_, i) => (5 * i) / 2000);
    return () => core.nadarayaWatson(q, x, y, { kernel: 'gaussian', w: 0.5 });
  },
  'attentionWeights n=2000': (core) => {
    const { x } = core.makeDataset({ n: 2000, seed: 1 });
    const q = Float64Array.from({ length: 2000 }, (_, i) => (5 * i) / 2000);
    const out = new Float64Array(2000 * 2000);
    return () => core.attentionWeights(q, x, { kernel: 'gaussian', w: 0.5, out });
  },
  'attentionModelTrain default, 20 steps': (core) => {
    const model = core.attentionModelInit({});
    return () => core.attentionModelTrain(model, { steps: 20, evaluateAtEnd: false, evalEvery: 10000 });
  },
  'attentionModelTrain length 32, 5 steps': (core) => {
    const model = core.attentionModelInit({ length: 32 });
    return () => core.attentionModelTrain(model, { steps: 5, evaluateAtEnd: false, evalEvery: 10000 });
  },
  'seq2seqTrain transformer dates, 5 steps': (core) => {
    const model = core.seq2seqInit({ task: 'dates', architecture: 'transformer' });
    return () => core.seq2seqTrain(model, { task: 'dates', steps: 5, evaluateAtEnd: false, evalEvery: 10000 });
  },
  'seq2seqTrain bahdanau dates, 5 steps': (core) => {
    const model = core.seq2seqInit({ task: 'dates', architecture: 'bahdanau' });
    return () => core.seq2seqTrain(model, { task: 'dates', steps: 5, evaluateAtEnd: false, evalEvery: 10000 });
  },
};
const cpu = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
const median = (xs) => { const s = [...xs].sort((p, q) => p - q); return s[s.length >> 1]; };
const only = process.env.AB_ONLY ? new RegExp(process.env.AB_ONLY) : null;
for (const [name, make] of Object.entries(cases).filter(([n]) => !only || only.test(n))) {
  const runs = [make(A), make(B)];
  for (let w = 0; w < 3; w += 1) for (const run of runs) run();
  const times = [[], []];
  for (let r = 0; r < rounds; r += 1) {
    const order = r % 2 ? [1, 0] : [0, 1];
    for (const i of order) { const t = cpu(); runs[i](); times[i].push(cpu() - t); }
  }
  const [a, b] = times.map(median);
  console.log(`${name.padEnd(42)} A ${a.toFixed(2).padStart(8)} ms  B ${b.toFixed(2).padStart(8)} ms  B/A ${(b / a).toFixed(3)}`);
}
