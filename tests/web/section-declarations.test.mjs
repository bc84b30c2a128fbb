// The sections' declarations (web/src/sections/registry.js), checked without
// a browser: every parameter a section names exists and belongs to a
// section, every error route leads to a control of the section, routing goes
// by the error's fields, and each section's compute() runs against the real
// core (dist/attention-core.mjs) with the page's defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SECTIONS, SECTION_IDS } from '../../web/src/sections/registry.js';
import { parameters, defaultState, clampValue, createStore } from '../../web/src/state.js';
import { parameterOf, describeError } from '../../web/src/section-errors.js';
import { setLanguage } from '../../web/src/i18n/index.js';
import { memoizeCore } from '../../web/src/core-memo.js';
import { setup, curveQueries } from '../../web/src/sections/kernel-regression.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';

test('the sections are those of index.html, in its order, each declared once', async () => {
  const html = await readFile('web/index.html', 'utf8');
  const inPage = [...html.matchAll(/<section id="([\w-]+)" data-section="\1">/g)].map((match) => match[1]);
  assert.deepEqual(SECTION_IDS, inPage);
  for (const section of SECTIONS) {
    assert.equal(typeof section.create, 'function', `${section.id}: create`);
    assert.equal(typeof section.frame?.titleKey, 'string', `${section.id}: a title`);
    if (section.compute) assert.equal(typeof section.draw, 'function', `${section.id}: what it computes is drawn`);
  }
});

test('every input is a parameter of the table, and every parameter is some section\'s input', () => {
  const used = new Set();
  for (const { id, inputs = [] } of SECTIONS) {
    assert.equal(new Set(inputs).size, inputs.length, `${id}: no input listed twice`);
    for (const name of inputs) {
      assert.ok(Object.hasOwn(parameters, name), `${id}: ${name} is in the table`);
      used.add(name);
    }
  }
  const orphans = Object.keys(parameters).filter((name) => name !== 'language' && !used.has(name));
  assert.deepEqual(orphans, [], 'no parameter that no section reads');
});

test('every error route leads to one of the section\'s own inputs', () => {
  for (const { id, inputs = [], arguments: routes = {} } of SECTIONS) {
    for (const [argument, route] of Object.entries(routes)) {
      const targets = typeof route === 'function'
        ? [...new Set(Object.keys(parameters).flatMap((name) =>
          (parameters[name].options ?? []).map((option) => route({ ...defaultState(), [name]: option }))).flat())]
        : [route].flat();
      for (const target of targets) {
        if (target === null) continue;
        assert.ok(inputs.includes(target), `${id}: ${argument} -> ${target} is an input of the section`);
      }
    }
  }
});

test('an error is routed by its fields: name, map, index, function of the inputs', () => {
  const byId = Object.fromEntries(SECTIONS.map((section) => [section.id, section]));
  const error = (argument, index) => Object.assign(new Error(`${argument}: expected something`), { argument, index });
  assert.equal(parameterOf(error('noise'), byId.data), 'noise', 'an argument named like an input');
  assert.equal(parameterOf(error('xMax'), byId.data), null, 'an argument no control owns');
  assert.equal(parameterOf(error('queries'), byId.heatmap), 'query', 'a mapped argument');
  assert.equal(parameterOf(error('validLens', 1), byId.scoring), 'scoringLen2', 'a list, by index');
  assert.equal(parameterOf(error('validLens'), byId.scoring), null, 'a list needs an index');
  assert.equal(parameterOf(error('validLens', 1), byId.masking, { maskMode: '1d' }), 'maskLen2');
  assert.equal(parameterOf(error('validLens', 1), byId.masking, { maskMode: '2d' }), 'maskLen12');
  assert.equal(parameterOf(new Error('noise: expected a value'), byId.data), null, 'no fields, no route: the text is not parsed');
});

test('an error reads in the page\'s language, from its fields', () => {
  const error = Object.assign(new Error('validLens: expected lengths in [0, 4] (nk), got 7 at index 1'),
    { argument: 'validLens', expected: 'lengths in [0, 4] (nk)', got: '7', index: 1 });
  setLanguage('en');
  assert.equal(describeError(error), `The core refused this: ${error.message}`, 'English rebuilds the core\'s own message');
  setLanguage('zh');
  assert.equal(describeError(error), '计算核心拒绝了这个值：参数 validLens 在下标 1 处的值 7 不被接受'
    + '（计算核心的原话：validLens: expected lengths in [0, 4] (nk), got 7 at index 1）', 'a sentence for the kind, the core\'s words beside it');
  assert.equal(describeError(new Error('out of memory')), '计算核心拒绝了这个值：计算无法完成（计算核心的原话：out of memory）', 'no fields: the message');
  setLanguage('en');
});

test('each section computes its figures from the page\'s defaults with the real core', async () => {
  const raw = await loadAttentionCore();
  const core = memoizeCore(raw);
  const state = defaultState();
  const inputsOf = ({ inputs = [] }) => Object.fromEntries(inputs.map((name) => [name, state[name]]));
  const results = {};
  for (const section of SECTIONS.filter(({ compute }) => compute)) results[section.id] = section.compute(core, inputsOf(section));

  const data = raw.makeDataset({ n: state.n, noise: state.noise, seed: state.seed, xMax: 5 });
  assert.deepEqual(results.data.data, data, 'the data set of the defaults');
  assert.equal(results.pooling.data, results.data.data, 'sections share one data set object (one core call)');
  assert.equal(results.heatmap.data, results.data.data);
  assert.deepEqual(results.pooling.prediction, raw.nadarayaWatson(curveQueries, data.x, data.y, { kernel: 'gaussian', w: 1 }));
  assert.equal(results.heatmap.prediction, results.pooling.prediction, 'one curve for both sections');
  assert.deepEqual(results.heatmap.row.weights,
    raw.attentionWeights([state.query], data.x, { kernel: 'gaussian', w: state.w }));
  assert.equal(results.positional.length, state.peLength * state.peDim);
  assert.equal(results.multihead.full.weights.length, state.mhaHeads * 6 * 6);
  assert.equal(results.masking.weights.length, 16);
  assert.deepEqual(Array.from(results.masking.rowLengths), [2, 2, 3, 3], 'valid lengths [2, 3] per batch item');
  assert.deepEqual(Array.from(results.scoring.dot.weights.slice(0, 10)), [0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0],
    'all-ones keys, valid length 2: two equal weights');
});

test('the page starts from the book\'s defaults, which the core owns', async () => {
  const { defaults } = await loadAttentionCore();
  const state = defaultState();
  assert.deepEqual({ n: state.n, seed: state.seed, noise: state.noise, xMax: setup.xMax }, { ...defaults.dataset });
  assert.deepEqual({ kernel: state.kernel, w: state.w }, { ...defaults.kernel });
  assert.deepEqual({ w0: state.w0, lr: state.lr, epochs: state.epochs, leaveOneOut: state.leaveOneOut }, { ...defaults.training });
});

// Pairs of parameters each within its bounds can still be refused together
// (the heads must divide the hidden size). The table's constraints repair
// them (state.js); this asks the core, for every section, every pair of its
// inputs at their bounds, a middle value and their defaults (every option of
// a choice, both values of a switch), as the store hands them on.
test('each section computes at every pair of its inputs\' bounds, as the store repairs them', async () => {
  const raw = await loadAttentionCore();
  const core = memoizeCore(raw);
  const samples = (name) => {
    const spec = parameters[name];
    if (spec.type === 'choice') return spec.options;
    if (spec.type === 'boolean') return [true, false];
    return [...new Set([spec.min, spec.max, spec.default, clampValue(name, (spec.min + spec.max) / 2)])];
  };
  const refused = [];
  let computed = 0;
  for (const section of SECTIONS.filter(({ compute }) => compute)) {
    const { inputs } = section;
    for (let i = 0; i < inputs.length; i += 1) {
      for (let j = i + 1; j < inputs.length; j += 1) {
        for (const a of samples(inputs[i])) {
          for (const b of samples(inputs[j])) {
            const state = createStore({ [inputs[i]]: a, [inputs[j]]: b }, { limits: raw.limits }).get();
            computed += 1;
            try {
              section.compute(core, Object.fromEntries(inputs.map((name) => [name, state[name]])));
            } catch (error) {
              refused.push(`${section.id}: ${inputs[i]} = ${a}, ${inputs[j]} = ${b}: ${error.message}`);
            }
          }
        }
      }
    }
  }
  assert.ok(computed > 1000, `${computed} states`);
  assert.deepEqual(refused, []);
});
