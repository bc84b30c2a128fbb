// A battery of core calls whose every float64 must be the same bits in every
// engine: each function of the JS API on the book's defaults and on seeded
// draws, training included. `coreBattery` is self-contained (no imports, no
// closure): the tests hand its source to each browser and run it there on
// the page's own dist/attention-core.mjs, and Node runs it as it is.

export async function coreBattery(core) {
  const results = {};
  // Every float64 of a result, as the 16 hex digits of its bits (in order of
  // the result's own keys, so a name says where a difference is).
  const hex = (value) => {
    const words = new Uint32Array(Float64Array.of(value).buffer);
    return words[1].toString(16).padStart(8, '0') + words[0].toString(16).padStart(8, '0');
  };
  const record = (name, value) => {
    if (typeof value === 'number') results[name] = [hex(value)];
    else if (value instanceof Float64Array || value instanceof Float32Array) results[name] = Array.from(value, hex);
    else if (ArrayBuffer.isView(value) || Array.isArray(value)) {
      value.forEach((item, i) => record(`${name}[${i}]`, item));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) record(`${name}.${key}`, item);
    } else results[name] = [String(value)];
  };

  const { x, y } = core.makeDataset({});
  record('makeDataset', core.makeDataset({ n: 200, seed: 7, noise: 0.3 }));
  const queries = Float64Array.from({ length: 50 }, (_, i) => i / 10);
  record('truth', core.truth(queries));
  record('averagePool', core.averagePool(y, 50));
  for (const kernel of ['gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov']) {
    record(`attentionWeights.${kernel}`, core.attentionWeights(queries, x, { kernel, w: 1.7 }));
    record(`nadarayaWatson.${kernel}`, core.nadarayaWatson(queries, x, y, { kernel, w: 1.7 }));
  }
  record('trainKernelWidth', core.trainKernelWidth(x, y, { w0: 1, lr: 0.5, epochs: 20 }));
  record('lossLandscape', core.lossLandscape(x, y, Float64Array.from({ length: 30 }, (_, i) => 0.1 + i / 3)));

  const normal = (count, seed) => core.randomNormal(count, { seed });
  const uniform = (count, seed, bound) => core.randomUniform(count, { seed, low: -bound, high: bound });
  record('randomNormal', normal(64, 2 ** 32 - 1));
  record('randomUniform', uniform(64, 3, 0.5));
  record('maskedSoftmax', core.maskedSoftmax(normal(2 * 3 * 5, 4), [2, 3, 5], [2, 4]));
  record('maskScores', core.maskScores(normal(2 * 3 * 5, 4), [2, 3, 5], [2, 4]).maskedScores);
  const [batch, nq, nk, dq, dk, dv, h] = [2, 3, 6, 5, 4, 3, 8];
  record('additiveAttention', core.additiveAttention({
    queries: normal(batch * nq * dq, 5), keys: normal(batch * nk * dk, 6), values: normal(batch * nk * dv, 7),
    shape: { batch, nq, nk, dq, dk, dv, h },
    Wq: uniform(h * dq, 8, 1 / Math.sqrt(dq)), Wk: uniform(h * dk, 9, 0.5), wv: uniform(h, 10, 1 / Math.sqrt(h)),
    validLens: [3, 6],
  }));
  record('dotProductAttention', core.dotProductAttention({
    queries: normal(batch * nq * dk, 11), keys: normal(batch * nk * dk, 12), values: normal(batch * nk * dv, 13),
    shape: { batch, nq, nk, d: dk, dv }, validLens: null,
  }));
  record('batchMatrixProduct', core.batchMatrixProduct(normal(3 * 4 * 5, 14), normal(3 * 5 * 6, 15),
    { shapeX: [3, 4, 5], shapeY: [3, 5, 6] }));
  const hidden = 8;
  const heads = 2;
  record('multiHeadAttention', core.multiHeadAttention({
    queries: normal(batch * nq * hidden, 16), keys: normal(batch * nk * hidden, 17), values: normal(batch * nk * hidden, 18),
    shape: { batch, nq, nk, hidden, heads },
    Wq: uniform(hidden * hidden, 19, 0.35), Wk: uniform(hidden * hidden, 20, 0.35), Wv: uniform(hidden * hidden, 21, 0.35),
    Wo: uniform(hidden * hidden, 22, 0.35), validLens: [2, 5], headMask: null,
  }));
  record('positionalEncoding', core.positionalEncoding(60, 32));
  record('scalingStudy', core.scalingStudy({ dims: [1, 8, 64, 512], samples: 50, keys: 10, seed: 3 }));
  record('consistencyStudy', core.consistencyStudy({ sizes: [10, 100], repeats: 3 }));

  // The trainable model: 30 Adam steps of the default task, then its forward pass.
  const trained = core.attentionModelTrain(core.attentionModelInit({}), { steps: 30 });
  record('attentionModelTrain.loss', trained.loss);
  record('attentionModelTrain.model', trained.model);
  const task = core.attentionTaskBatch({});
  record('attentionModelForward', core.attentionModelForward(trained.model, task.tokens, {}));
  return results;
}
