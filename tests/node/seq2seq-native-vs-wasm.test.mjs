// The translators give the native build's bits in wasm: seq2seq_dump trains
// each case natively (both architectures, a few steps, held-out evaluations,
// one run that diverges) and translates held-out sources greedily; the same
// calls through the JS API must give the same losses, evaluations, stop
// reason, parameters, tokens and attention, bit for bit.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';

import { api, assertSameBits, f64, fromHex } from './helpers.mjs';

const flatten = (params) => Float64Array.from(Object.values(params).flatMap((p) => Array.from(p)));

test('training and translating in wasm give the native build\'s bits (seq2seq_dump)', () => {
  const dump = process.env.ATTENTION_SEQ2SEQ_DUMP;
  assert.ok(dump && existsSync(dump),
    `native seq2seq_dump not found at ${dump}: run through ctest after the native preset (cmake --workflow --preset native)`);
  const { cases } = JSON.parse(execFileSync(dump, { encoding: 'utf8', maxBuffer: 2 ** 26 }));
  assert.equal(cases.length, 5);
  const architectures = new Set(cases.map((c) => c.config.architecture));
  assert.deepEqual([...architectures].sort(), ['bahdanau', 'transformer']);
  assert.ok(cases.some((c) => c.stopReason !== null), 'a case that diverges');
  assert.ok(cases.some((c) => c.stopReason === null && c.accuracy.length > 0), 'a case with held-out evaluations');
  for (const c of cases) {
    const label = `${c.config.architecture} on ${c.training.task}`;
    const model = api.seq2seqInit({ ...c.config, embeddingScale: fromHex(c.config.embeddingScale) });
    const run = api.seq2seqTrain(model, { ...c.training, lr: fromHex(c.training.lr), clip: fromHex(c.training.clip) });
    assertSameBits(run.loss, f64(c.loss), `${label} loss`);
    assertSameBits(run.accuracy, f64(c.accuracy), `${label} accuracy`);
    assertSameBits(run.bleu, f64(c.bleu), `${label} BLEU`);
    assertSameBits(run.evaluatedAt, f64(c.evaluatedAt), `${label} evaluated at`);
    assertSameBits([run.heldOutAccuracy ?? NaN, run.heldOutBleu ?? NaN],
      [fromHex(c.heldOutAccuracy), fromHex(c.heldOutBleu)], `${label} held-out figures at the end`);
    assert.equal(run.stopReason, c.stopReason, `${label} stop reason`);
    assert.equal(run.model.optimizerState.step, c.step, `${label} steps taken`);
    assertSameBits(flatten(run.model.params), f64(c.params), `${label} parameters`);

    const count = c.translation.lengths.length;
    const { source, sourceLens } = api.seq2seqHeldOut({ task: c.training.task, count });
    const translation = api.seq2seqTranslate(run.model, source, { sourceLens });
    assert.deepEqual(Array.from(translation.tokens), c.translation.tokens, `${label} translated tokens`);
    assert.deepEqual(Array.from(translation.lengths), c.translation.lengths, `${label} translation lengths`);
    assertSameBits(translation.crossWeights, f64(c.translation.crossWeights), `${label} attention of the translation`);
  }
});
