// The multi-head and positional-encoding sections' exercises
// (sections/multihead/exercises.js, positional/exercises.js),
// without a browser: each right answer judged right and the typical wrong
// ones wrong with the feedback that names them, every right answer asked of
// the test's own core (dist/attention-core.mjs) for the state, so that a
// new seed or setting gives a new right answer, and solution() agreeing
// with check().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { memoizeCore } from '../../web/src/core-memo.js';
import { setLanguage, loadCatalogue } from '../../web/src/i18n/index.js';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { countingCore } from './core-calls.mjs';
import { normalDraws, linearBound } from '../../web/src/sections/shared/seeded-draws.js';
import { MOST_HEADS_WEIGHED } from '../../web/src/sections/multihead/exercises.js';
import { ENTRY_TOLERANCE, TURN_TOLERANCE, PERIOD_GOAL } from '../../web/src/sections/positional/exercises.js';

// The page loads a language's catalogue when it shows it; these tests read both.
await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);

const raw = await loadAttentionCore();
const core = memoizeCore(raw);
const pick = (state, names) => Object.fromEntries(names.map((name) => [name, state[name]]));
const sectionOf = (id) => SECTIONS.find((section) => section.id === id);
const exerciseOf = (section, id) => section.exercises.find((exercise) => exercise.id === id);

const multiHead = sectionOf('multihead');
const mhaInputs = (patch = {}) => ({ ...pick(defaultState(), multiHead.inputs), ...patch });

// The section's layer, built here from the seeded draws and the test's core.
function layer({ mhaHidden: hidden, mhaHeads: heads, mhaSeed: seed }, headMask = null) {
  const tokens = normalDraws(raw, 6 * hidden, seed, 'tokens');
  const projection = (role) => normalDraws(raw, hidden * hidden, seed, role, linearBound(hidden));
  return raw.multiHeadAttention({
    queries: tokens, keys: tokens, values: tokens, shape: { batch: 1, nq: 6, nk: 6, hidden, heads },
    Wq: projection('wq'), Wk: projection('wk'), Wv: projection('wv'), Wo: projection('wo'), headMask,
  });
}

test('the multi-head section declares four exercises of four kinds, and a teacher\'s note', () => {
  assert.deepEqual(multiHead.exercises.map(({ id, kind }) => `${id}:${kind}`),
    ['split-shape:concept', 'parameter-count:compute', 'switch-off:predict', 'most-important-head:achieve']);
  assert.equal(multiHead.teacherNoteKey, 'multihead.ex.teacherNote');
});

test('split-shape: heads split the features; each wrong shape has its own explanation', () => {
  const split = exerciseOf(multiHead, 'split-shape');
  assert.equal(split.check(null, {}, 'features').verdict, 'right');
  for (const id of ['tokens', 'copies', 'wider']) {
    const result = split.check(null, {}, id);
    assert.equal(result.verdict, 'wrong');
    assert.equal(result.key, `multihead.ex.split.${id}Why`);
  }
});

test('parameter-count: the core\'s layer holds 4 H^2 whatever the heads; more heads times that is named', () => {
  const params = exerciseOf(multiHead, 'parameter-count');
  const counted = ({ mhaHidden, mhaHeads }) => {
    const model = raw.attentionModelInit({ vocab: 2, length: 6, hidden: mhaHidden, heads: mhaHeads, blocks: 1 });
    return ['b0.Wq', 'b0.Wk', 'b0.Wv', 'b0.Wo'].reduce((sum, name) => sum + model.params[name].length, 0);
  };
  const book = mhaInputs();
  const right = counted(book);
  assert.equal(right, 4 * book.mhaHidden ** 2, 'four H x H matrices');
  assert.equal(params.check(core, book, right).verdict, 'right');
  assert.equal(params.check(core, book, right * book.mhaHeads).key, 'multihead.ex.params.perHead');
  assert.equal(params.check(core, book, right / book.mhaHeads).key, 'multihead.ex.params.oneHead');
  assert.equal(params.check(core, book, right * 0.75).key, 'multihead.ex.params.noWo');
  assert.equal(params.check(core, book, right * 1.05).verdict, 'close');
  assert.equal(params.check(core, book, right * 1.3).key, 'multihead.ex.params.tooHigh');
  assert.equal(params.check(core, book, right * 0.3).key, 'multihead.ex.params.tooLow');
  // Another H, another answer; more heads, the same.
  const other = mhaInputs({ mhaHidden: 64, mhaHeads: 8 });
  assert.notEqual(counted(other), right);
  assert.equal(params.check(core, other, right).verdict, 'wrong', 'the old H\'s count');
  assert.equal(params.check(core, other, counted(other)).verdict, 'right');
  assert.equal(params.check(core, mhaInputs({ mhaHeads: 20 }), right).verdict, 'right', '20 heads: the same count');
  setLanguage('en');
  assert.equal(params.solution(core, other).params.count, counted(other).toLocaleString('en-US'));
});

test('switch-off: a head\'s map and the other maps stay, every output column and row changes; said why', () => {
  const off = exerciseOf(multiHead, 'switch-off');
  assert.deepEqual(off.hides, ['mha-output-dropped', 'mha-output-kept']);
  const heads = new Set([0, 1, 2, 3, 4, 5, 6, 7].map((instance) => off.draw(core, mhaInputs(), instance).head));
  assert.ok(heads.size > 1, 'try another: another head');
  for (const head of heads) assert.ok(head >= 0 && head < 5);
  for (const seed of [0, 1]) {
    const inputs = mhaInputs({ mhaSeed: seed });
    const instance = off.draw(core, inputs, 0);
    // The test's own reading of the core: maps unchanged, every cell of the output changed.
    const mask = new Float64Array(5).fill(1);
    mask[instance.head] = 0;
    const full = layer(inputs);
    const without = layer(inputs, mask);
    assert.deepEqual(Array.from(without.weights), Array.from(full.weights), 'no map changes');
    assert.ok(full.output.every((value, i) => Math.abs(value - without.output[i]) > 1e-12), 'every output cell changes');
    assert.equal(off.check(core, inputs, ['all-columns', 'every-token'], instance).verdict, 'right');
    for (const [answer, key] of [
      [['own-map', 'all-columns', 'every-token'], 'multihead.ex.off.ownMapWhy'],
      [['other-maps', 'all-columns', 'every-token'], 'multihead.ex.off.otherMapsWhy'],
      [['own-columns', 'every-token'], 'multihead.ex.off.ownColumnsWhy'],
      [['every-token'], 'multihead.ex.off.allColumnsWhy'],
      [['all-columns'], 'multihead.ex.off.everyTokenWhy'],
    ]) {
      const result = off.check(core, inputs, answer, instance);
      assert.equal(result.verdict, 'wrong', answer.join());
      assert.equal(result.key, key, answer.join());
    }
    assert.deepEqual(off.solution(core, inputs, instance).claims, ['all-columns', 'every-token']);
  }
  // One head: it is all of H, so "only its own columns" is true too.
  const single = mhaInputs({ mhaHeads: 1 });
  assert.deepEqual(off.solution(core, single, { head: 0 }).claims, ['own-columns', 'all-columns', 'every-token']);
  assert.equal(off.check(core, single, ['own-columns', 'all-columns', 'every-token'], { head: 0 }).verdict, 'right');
});

test('most-important-head: the head whose contribution is largest, asked of the core; a new seed, another head', () => {
  const important = exerciseOf(multiHead, 'most-important-head');
  // Each head's contribution, from the test's core with only it on.
  const largest = (inputs) => {
    const sizes = Array.from({ length: inputs.mhaHeads }, (_, head) => {
      const mask = new Float64Array(inputs.mhaHeads);
      mask[head] = 1;
      return Math.hypot(...layer(inputs, mask).output);
    });
    return { best: sizes.indexOf(Math.max(...sizes)), sizes };
  };
  const seed0 = largest(mhaInputs({ mhaSeed: 0 }));
  let seed = 1;
  while (largest(mhaInputs({ mhaSeed: seed })).best === seed0.best) seed += 1;
  const seedN = largest(mhaInputs({ mhaSeed: seed }));
  const offOnly = (head, patch) => mhaInputs({ ...patch, mhaHeadsOff: 1 << head });
  assert.equal(important.check(core, offOnly(seed0.best, { mhaSeed: 0 })).verdict, 'right');
  assert.notEqual(important.check(core, offOnly(seed0.best, { mhaSeed: seed })).verdict, 'right', 'the old seed\'s head');
  assert.equal(important.check(core, offOnly(seedN.best, { mhaSeed: seed })).verdict, 'right', `seed ${seed}: head ${seedN.best + 1}`);
  assert.equal(important.solution(core, mhaInputs({ mhaSeed: seed })).params.head, seedN.best + 1);
  assert.equal(important.solution(core, mhaInputs({ mhaSeed: 0 })).params.head, seed0.best + 1);
  const smaller = seed0.sizes.findIndex((value) => value < 0.9 * seed0.sizes[seed0.best]);
  assert.ok(smaller >= 0);
  assert.equal(important.check(core, offOnly(smaller, { mhaSeed: 0 })).key, 'multihead.ex.important.smaller');
  assert.equal(important.check(core, mhaInputs()).key, 'multihead.ex.important.none');
  assert.equal(important.check(core, mhaInputs({ mhaHeadsOff: 3 })).key, 'multihead.ex.important.several');
  assert.equal(important.check(core, mhaInputs({ mhaHeads: 1 })).key, 'multihead.ex.important.oneHead');
  assert.equal(important.check(core, mhaInputs({ mhaHeads: 10, mhaHeadsOff: 1 })).key, 'multihead.ex.important.tooMany');
  assert.ok(MOST_HEADS_WEIGHED < 10);
  // Cheap enough for a teacher's screen, redrawn on every change: the
  // layer with every head, and with each switched off, at H = 128 and 8 heads.
  const counting = countingCore(raw);
  important.solution(counting.core, mhaInputs({ mhaHidden: 128, mhaHeads: 8 }));
  const { total, training, byName } = counting.counts();
  assert.deepEqual(training, []);
  assert.ok(total <= 2 * (8 + 1), `${total} calls at 8 heads: ${JSON.stringify(byName)}`);
});

const positional = sectionOf('positional');
const peInputs = (patch = {}) => ({ ...pick(defaultState(), positional.inputs), ...patch });
const P = (length, dim) => raw.positionalEncoding(length, dim);

test('the positional-encoding section declares four exercises of three kinds, and a teacher\'s note', () => {
  assert.deepEqual(positional.exercises.map(({ id, kind }) => `${id}:${kind}`),
    ['fastest-column:predict', 'entry-value:compute', 'turn-angle:compute', 'column-period:achieve']);
  assert.equal(positional.teacherNoteKey, 'positional.ex.teacherNote');
});

test('fastest-column: the leftmost pair drawn, measured in the core\'s P; the pairing and rising frequency named', () => {
  const fastest = exerciseOf(positional, 'fastest-column');
  assert.deepEqual(fastest.hides, ['pe-heatmap', 'pe-curves', 'pe-binary-note']);
  // The leads stay in view above the covered figures: they must not say which way the frequency goes.
  for (const language of ['en', 'zh']) {
    for (const key of positional.frame.leadKeys) {
      const lead = assembleCatalogue(language)[key];
      assert.doesNotMatch(lead, /fall|lower|higher|slower|faster|降低|更低|更高|更慢|更快/, `${language} ${key} gives the answer away`);
    }
  }
  // Sign changes of each column over 200 positions, counted here in the core's P.
  const changes = (dim, column) => {
    const p = P(200, dim);
    let count = 0;
    for (let i = 1; i < 200; i += 1) if (Math.sign(p[i * dim + column]) !== Math.sign(p[(i - 1) * dim + column])) count += 1;
    return count;
  };
  const book = peInputs(); // columns 6-9, d = 32
  assert.ok(changes(32, 6) > changes(32, 8), 'column 6 crosses zero more often than column 8');
  assert.equal(fastest.check(core, book, 'firstTwo').verdict, 'right', 'columns 6 and 7 share the fastest frequency');
  assert.equal(fastest.check(core, book, 'first').key, 'positional.ex.fastest.partner');
  assert.equal(fastest.check(core, book, 'last').key, 'positional.ex.fastest.rising');
  assert.equal(fastest.check(core, book, 'lastTwo').key, 'positional.ex.fastest.rising');
  assert.equal(fastest.check(core, book, 'all').key, 'positional.ex.fastest.same');
  // An odd first column: it is the cosine partner of the column before, alone among those drawn.
  const odd = peInputs({ peColumn: 7 });
  assert.equal(fastest.check(core, odd, 'first').verdict, 'right');
  assert.equal(fastest.check(core, odd, 'firstTwo').key, 'positional.ex.fastest.oddStart');
  assert.equal(fastest.solution(core, odd).params.fastest, '7');
  assert.equal(fastest.solution(core, book).params.fastest, '6, 7');
  // Two columns drawn, one pair: all of them equally fast.
  assert.equal(fastest.check(core, peInputs({ peDim: 8, peColumn: 6 }), 'all').verdict, 'right');
  assert.equal(fastest.check(core, peInputs({ peDim: 8, peColumn: 9 }), 'first').key, 'positional.ex.fastest.noColumns');
  assert.deepEqual(fastest.draw(core, odd, 0).columns, [7, 8, 9, 10]);
});

test('entry-value: P past the positions drawn, from the core for the live d; swapped sin/cos and the column index named', () => {
  const entry = exerciseOf(positional, 'entry-value');
  const inputs = peInputs();
  const asked = entry.draw(core, inputs, 0);
  assert.ok(asked.row >= inputs.peLength, 'past the positions drawn');
  const drawn = new Set([0, 1, 2, 3, 4, 5].map((instance) => JSON.stringify(entry.draw(core, inputs, instance))));
  assert.ok(drawn.size > 1, 'try another: another entry');
  const valueAt = (dim, { row, col }) => P(row + 1, dim)[row * dim + col];
  const right = valueAt(inputs.peDim, asked);
  assert.equal(right, Math[asked.col % 2 === 0 ? 'sin' : 'cos'](asked.row / 10000 ** ((2 * Math.floor(asked.col / 2)) / inputs.peDim)),
    'the core computes d2l\'s formula');
  assert.equal(entry.check(core, inputs, right, asked).verdict, 'right');
  assert.equal(entry.check(core, inputs, right + ENTRY_TOLERANCE / 2, asked).verdict, 'right', 'within the tolerance');
  assert.equal(entry.check(core, inputs, valueAt(inputs.peDim, { row: asked.row, col: asked.col ^ 1 }), asked).key, 'positional.ex.entry.swapped');
  const indexColumn = 2 * asked.col + (asked.col % 2);
  if (indexColumn < inputs.peDim) {
    assert.equal(entry.check(core, inputs, valueAt(inputs.peDim, { row: asked.row, col: indexColumn }), asked).key, 'positional.ex.entry.columnIndex');
  }
  const far = right > 0 ? right - 0.5 : right + 0.5;
  if (![asked.col ^ 1, indexColumn].some((col) => col < inputs.peDim && Math.abs(valueAt(inputs.peDim, { row: asked.row, col }) - far) <= ENTRY_TOLERANCE)) {
    assert.equal(entry.check(core, inputs, far, asked).key, right > 0 ? 'positional.ex.entry.tooLow' : 'positional.ex.entry.tooHigh');
  }
  assert.match(entry.solution(core, inputs, asked).params.value, new RegExp(right.toFixed(3).replace('-', '−')));
  // Another d, another right answer for the same question.
  const wider = peInputs({ peDim: 48 });
  const other = valueAt(48, asked);
  assert.ok(Math.abs(other - right) > 3 * ENTRY_TOLERANCE, `d = 48 moves P[${asked.row}, ${asked.col}]: ${right} -> ${other}`);
  assert.notEqual(entry.check(core, wider, right, asked).verdict, 'right', 'the old d\'s answer');
  assert.equal(entry.check(core, wider, other, asked).verdict, 'right');
  // More positions drawn: the question moves past them.
  assert.ok(entry.draw(core, peInputs({ peLength: 200 }), 0).row >= 200);
});

test('turn-angle: k w_j from the core\'s rows, the same from any start; the angle of a position, one step and degrees named', () => {
  const turn = exerciseOf(positional, 'turn-angle');
  const inputs = peInputs();
  const asked = turn.draw(core, inputs, 0);
  assert.ok(asked.pair > 0 && 2 * asked.pair + 1 < inputs.peDim, 'a pair past the first');
  const drawn = new Set([0, 1, 2, 3, 4, 5].map((instance) => JSON.stringify(turn.draw(core, inputs, instance))));
  assert.ok(drawn.size > 1, 'try another: another question');
  // The angle of the point (P[i, 2j + 1], P[i, 2j]) in the core's P, at two positions.
  const angleAt = (dim, row, pair) => {
    const p = P(row + 1, dim);
    return Math.atan2(p[row * dim + 2 * pair], p[row * dim + 2 * pair + 1]);
  };
  const turnOf = (dim, from) => {
    const delta = angleAt(dim, from + asked.steps, asked.pair) - angleAt(dim, from, asked.pair);
    return Math.atan2(Math.sin(delta), Math.cos(delta));
  };
  const right = turnOf(inputs.peDim, asked.from);
  assert.ok(Math.abs(turnOf(inputs.peDim, asked.from + 37) - right) < 1e-9, 'the same turn from another start');
  assert.ok(right > 0.3 && right < 3, `one answer below a half turn: ${right}`);
  assert.equal(turn.check(core, inputs, right, asked).verdict, 'right');
  const frequency = Math.asin(P(2, inputs.peDim)[inputs.peDim + 2 * asked.pair]);
  assert.equal(turn.check(core, inputs, (asked.from + asked.steps) * frequency, asked).key, 'positional.ex.turn.absolute');
  assert.equal(turn.check(core, inputs, asked.from * frequency, asked).key, 'positional.ex.turn.absolute');
  if (asked.steps > 1) assert.equal(turn.check(core, inputs, frequency, asked).key, 'positional.ex.turn.oneStep');
  assert.equal(turn.check(core, inputs, (right * 180) / Math.PI, asked).key, 'positional.ex.turn.degrees');
  assert.match(turn.solution(core, inputs, asked).params.angle, new RegExp(right.toFixed(3)));
  // Another d, another turn for the same pair and steps.
  const other = turnOf(64, asked.from);
  assert.ok(Math.abs(other - right) > 3 * TURN_TOLERANCE, `d = 64 moves the turn: ${right} -> ${other}`);
  assert.notEqual(turn.check(core, peInputs({ peDim: 64 }), right, asked).verdict, 'right', 'the old d\'s answer');
  assert.equal(turn.check(core, peInputs({ peDim: 64 }), other, asked).verdict, 'right');
});

test('column-period: column 6 repeats within 20 positions only for a d large enough, found by the core', () => {
  const period = exerciseOf(positional, 'column-period');
  // Column 6's period, from the sign changes of its sine over 2000 positions in the core's P.
  const measured = (dim) => {
    const p = P(2000, dim);
    const crossings = [];
    for (let i = 1; i < 2000; i += 1) if (p[i * dim + 6] < 0 !== p[(i - 1) * dim + 6] < 0) crossings.push(i);
    return (2 * (crossings.at(-1) - crossings[0])) / (crossings.length - 1);
  };
  const smallest = period.solution(core).params.dim;
  assert.ok(measured(smallest) <= PERIOD_GOAL.period + 0.5, `d = ${smallest}: ${measured(smallest)}`);
  assert.ok(measured(smallest - 1) > PERIOD_GOAL.period, `d = ${smallest - 1}: ${measured(smallest - 1)}`);
  assert.equal(period.check(core, peInputs({ peDim: smallest })).verdict, 'right');
  assert.equal(period.check(core, peInputs({ peDim: 128 })).verdict, 'right');
  assert.equal(period.check(core, peInputs({ peDim: smallest - 1 })).verdict, 'close');
  assert.equal(period.check(core, peInputs()).key, 'positional.ex.period.tooSlow', 'the book\'s d = 32');
  assert.equal(period.check(core, peInputs({ peDim: 16 })).key, 'positional.ex.period.lowered', 'a smaller d: slower');
  assert.equal(period.check(core, peInputs({ peDim: 6 })).key, 'positional.ex.period.noColumn');
});
