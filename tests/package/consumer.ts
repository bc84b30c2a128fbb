// A course site's TypeScript, type-checked against the packed package with
// `tsc --noEmit` (strict). Each @ts-expect-error marks a call that must NOT
// type-check: if the declarations ever accept it, tsc fails on the unused directive.
import { loadAttentionCore, type AttentionCoreError, type AttentionModel } from 'attention-lab';
import 'attention-lab/element';
import type {
  AttentionLabAttributes, AttentionLabHeightMessage, AttentionLabProgressMessage, SectionId,
} from 'attention-lab/element';

export async function lesson(): Promise<number> {
  const core = await loadAttentionCore();
  const { x, y } = core.makeDataset({ n: 50, seed: 0, noise: 0.5 });
  const yHat: Float64Array = core.nadarayaWatson([0, 0.1], x, y, { kernel: 'boxcar', w: 2 });
  const run = core.trainKernelWidth(x, y, { epochs: 5, lr: 0.5 });
  const reason: string | null = run.stopReason;
  const weights = core.maskedSoftmax(new Float64Array(8), [1, 2, 4], [2]);
  const heads = core.multiHeadAttention({
    queries: x, keys: x, values: x, shape: { batch: 1, nq: 5, nk: 5, hidden: 10, heads: 2 },
    Wq: x, Wk: x, Wv: x, Wo: x, validLens: null, headMask: null,
  });
  const model: AttentionModel = core.attentionModelInit({ hidden: 16, heads: 2 });
  const trained = core.attentionModelTrain(model, { task: 'sort', steps: 10, optimizer: 'sgd' });
  const limit: number = core.limits.maxPoints;

  // @ts-expect-error: no such kernel
  core.nadarayaWatson([0], x, y, { kernel: 'gausian' });
  // @ts-expect-error: an option the function does not have
  core.makeDataset({ n: 50, points: 3 });
  // @ts-expect-error: the shape of maskedSoftmax is [batch, nq, nk]
  core.maskedSoftmax(weights, [1, 2]);
  // @ts-expect-error: no such task
  core.attentionModelTrain(model, { task: 'copy' });
  // @ts-expect-error: limits are read-only
  core.limits.maxPoints = 3;

  try {
    core.truth([Number.NaN]);
  } catch (error) {
    const refused = error as AttentionCoreError;
    if (refused.argument !== 'x') throw error;
  }
  return yHat[0] + (reason ? 0 : 1) + heads.weights.length + trained.loss.length + limit;
}

export function embed(): void {
  const lab = document.createElement('attention-lab'); // typed as the element
  lab.setAttribute('section', 'masking' satisfies SectionId);
  lab.addEventListener('attention-lab:ready', () => {
    const noise: number | undefined = lab.state.noise;
    const kernel: 'gaussian' | 'boxcar' | 'constant' | 'triangular' | 'epanechnikov' | undefined = lab.state.kernel;
    console.log(noise, kernel, lab.core?.limits.maxPoints, lab.core?.averagePool([1, 2], 1));
    // @ts-expect-error: the element's core may be the cues' part alone (section="cues"), which has no makeDataset
    lab.core?.makeDataset({ n: 5 });
    const core = lab.core;
    if (core && 'makeDataset' in core) console.log(core.makeDataset({ n: 5 }).x.length);
  });
  // A learner's progress, as a course page or a learning platform reads it.
  lab.addEventListener('attention-lab:progress', (event) => {
    const { section, exercise, status, attempts, score } = event.detail;
    const share: number = score.right / score.total;
    console.log(section satisfies SectionId, exercise, status === 'right', attempts, share);
  });
  const attributes: AttentionLabAttributes = {
    section: 'pooling', kernel: 'boxcar', 'leave-one-out': 'false', hide: 'seed', exercises: 'answers',
  };
  // @ts-expect-error: no such mode of the exercises
  const hidden: AttentionLabAttributes = { exercises: 'hidden' };
  // @ts-expect-error: no such section
  const wrong: AttentionLabAttributes = { section: 'poolng' };
  window.addEventListener('message', (event: MessageEvent<AttentionLabHeightMessage | AttentionLabProgressMessage>) => {
    if (event.data.type === 'attention-lab:height') console.log(event.data.section, event.data.height);
    else if (event.data.type === 'attention-lab:progress') console.log(event.data.exercise, event.data.score.finished);
  });
  console.log(attributes, wrong, hidden);
}
