// The Chinese catalogue's files, in the page's order (catalogue-files.js lists
// both languages'): a module of its own, so the page loads only the
// language it shows, and the other one while the learner reads.
import shared from './zh/shared.js';
import exercises from './zh/exercises.js';
import cues from './zh/cues.js';
import data from './zh/data.js';
import pooling from './zh/pooling.js';
import attentionHeatmap from './zh/attention-heatmap.js';
import training from './zh/training.js';
import scoringPipeline from './zh/scoring-pipeline.js';
import maskedSoftmax from './zh/masked-softmax.js';
import scoringFunctions from './zh/scoring-functions.js';
import multiHead from './zh/multi-head.js';
import positionalEncoding from './zh/positional-encoding.js';
import selfAttention from './zh/self-attention.js';
import translation from './zh/translation.js';
import attentionTraining from './zh/attention-training.js';

export default Object.freeze({
  shared,
  exercises,
  cues,
  data,
  pooling,
  'attention-heatmap': attentionHeatmap,
  training,
  'scoring-pipeline': scoringPipeline,
  'masked-softmax': maskedSoftmax,
  'scoring-functions': scoringFunctions,
  'multi-head': multiHead,
  'positional-encoding': positionalEncoding,
  'self-attention': selfAttention,
  translation,
  'attention-training': attentionTraining,
});
