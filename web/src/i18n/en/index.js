// The English catalogue: the page's shared strings and one file per
// section, in the page's order. A key lives in one file only (the
// catalogue test checks it, and that each file has the same keys as its twin in ../zh/).
import shared from './shared.js';
import cues from './cues.js';
import data from './data.js';
import pooling from './pooling.js';
import attentionHeatmap from './attention-heatmap.js';
import training from './training.js';
import scoringPipeline from './scoring-pipeline.js';
import maskedSoftmax from './masked-softmax.js';
import scoringFunctions from './scoring-functions.js';
import multiHead from './multi-head.js';
import positionalEncoding from './positional-encoding.js';
import selfAttention from './self-attention.js';
import attentionTraining from './attention-training.js';

export const parts = {
  'shared': shared,
  'cues': cues,
  'data': data,
  'pooling': pooling,
  'attention-heatmap': attentionHeatmap,
  'training': training,
  'scoring-pipeline': scoringPipeline,
  'masked-softmax': maskedSoftmax,
  'scoring-functions': scoringFunctions,
  'multi-head': multiHead,
  'positional-encoding': positionalEncoding,
  'self-attention': selfAttention,
  'attention-training': attentionTraining,
};

export default Object.assign({}, ...Object.values(parts));
