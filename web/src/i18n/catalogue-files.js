// The catalogues' files: the page's shared strings and one file per section,
// in the page's order, each in English (en/) and Chinese (zh/) with the same
// keys. i18n/index.js assembles each language's catalogue from them; a key
// lives in one file only (tests/web/catalogues.test.mjs checks both).
import sharedEn from './en/shared.js';
import sharedZh from './zh/shared.js';
import exercisesEn from './en/exercises.js';
import exercisesZh from './zh/exercises.js';
import cuesEn from './en/cues.js';
import cuesZh from './zh/cues.js';
import dataEn from './en/data.js';
import dataZh from './zh/data.js';
import poolingEn from './en/pooling.js';
import poolingZh from './zh/pooling.js';
import attentionHeatmapEn from './en/attention-heatmap.js';
import attentionHeatmapZh from './zh/attention-heatmap.js';
import trainingEn from './en/training.js';
import trainingZh from './zh/training.js';
import scoringPipelineEn from './en/scoring-pipeline.js';
import scoringPipelineZh from './zh/scoring-pipeline.js';
import maskedSoftmaxEn from './en/masked-softmax.js';
import maskedSoftmaxZh from './zh/masked-softmax.js';
import scoringFunctionsEn from './en/scoring-functions.js';
import scoringFunctionsZh from './zh/scoring-functions.js';
import multiHeadEn from './en/multi-head.js';
import multiHeadZh from './zh/multi-head.js';
import positionalEncodingEn from './en/positional-encoding.js';
import positionalEncodingZh from './zh/positional-encoding.js';
import selfAttentionEn from './en/self-attention.js';
import selfAttentionZh from './zh/self-attention.js';
import translationEn from './en/translation.js';
import translationZh from './zh/translation.js';
import attentionTrainingEn from './en/attention-training.js';
import attentionTrainingZh from './zh/attention-training.js';

export const CATALOGUE_FILES = Object.freeze({
  shared: { en: sharedEn, zh: sharedZh },
  exercises: { en: exercisesEn, zh: exercisesZh },
  cues: { en: cuesEn, zh: cuesZh },
  data: { en: dataEn, zh: dataZh },
  pooling: { en: poolingEn, zh: poolingZh },
  'attention-heatmap': { en: attentionHeatmapEn, zh: attentionHeatmapZh },
  training: { en: trainingEn, zh: trainingZh },
  'scoring-pipeline': { en: scoringPipelineEn, zh: scoringPipelineZh },
  'masked-softmax': { en: maskedSoftmaxEn, zh: maskedSoftmaxZh },
  'scoring-functions': { en: scoringFunctionsEn, zh: scoringFunctionsZh },
  'multi-head': { en: multiHeadEn, zh: multiHeadZh },
  'positional-encoding': { en: positionalEncodingEn, zh: positionalEncodingZh },
  'self-attention': { en: selfAttentionEn, zh: selfAttentionZh },
  translation: { en: translationEn, zh: translationZh },
  'attention-training': { en: attentionTrainingEn, zh: attentionTrainingZh },
});

// One language's catalogue: every file's keys together.
export const assembleCatalogue = (language) =>
  Object.assign({}, ...Object.values(CATALOGUE_FILES).map((file) => file[language]));
