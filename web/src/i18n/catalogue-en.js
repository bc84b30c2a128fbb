// The English catalogue's files, in the page's order (catalogue-files.js lists
// both languages'): a module of its own, so the page loads only the
// language it shows, and the other one while the learner reads.
import shared from './en/shared.js';
import exercises from './en/exercises.js';
import cues from './en/cues.js';
import data from './en/data.js';
import pooling from './en/pooling.js';
import attentionHeatmap from './en/attention-heatmap.js';
import training from './en/training.js';
import scoringPipeline from './en/scoring-pipeline.js';
import maskedSoftmax from './en/masked-softmax.js';
import scoringFunctions from './en/scoring-functions.js';
import multiHead from './en/multi-head.js';
import positionalEncoding from './en/positional-encoding.js';
import selfAttention from './en/self-attention.js';
import translation from './en/translation.js';
import attentionTraining from './en/attention-training.js';

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
