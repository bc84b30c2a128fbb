// Each language's catalogue in parts, each a module of its own, in the
// page's order: the page's shared strings (header, contents bar, loading
// line), the exercises' common ones, and one part per section, named as the
// section's module (sections/section-loaders.js). The page loads the shared
// parts and those of the sections it shows, in the learner's language; the
// rest while the learner reads (i18n/index.js). A key lives in one part only
// (tests/web/catalogues.test.mjs checks both languages). Written out in
// full: the bundler cuts a module per literal import().
export const SHARED_PARTS = Object.freeze(['shared', 'exercises']);

export const CATALOGUE_PARTS = Object.freeze({
  en: Object.freeze({
    shared: () => import('./en/shared.js'),
    exercises: () => import('./en/exercises.js'),
    cues: () => import('./en/cues.js'),
    data: () => import('./en/data.js'),
    pooling: () => import('./en/pooling.js'),
    'attention-heatmap': () => import('./en/attention-heatmap.js'),
    training: () => import('./en/training.js'),
    'scoring-pipeline': () => import('./en/scoring-pipeline.js'),
    'masked-softmax': () => import('./en/masked-softmax.js'),
    'scoring-functions': () => import('./en/scoring-functions.js'),
    'self-attention': () => import('./en/self-attention.js'),
    translation: () => import('./en/translation.js'),
    'multi-head': () => import('./en/multi-head.js'),
    'positional-encoding': () => import('./en/positional-encoding.js'),
    'attention-training': () => import('./en/attention-training.js'),
  }),
  zh: Object.freeze({
    shared: () => import('./zh/shared.js'),
    exercises: () => import('./zh/exercises.js'),
    cues: () => import('./zh/cues.js'),
    data: () => import('./zh/data.js'),
    pooling: () => import('./zh/pooling.js'),
    'attention-heatmap': () => import('./zh/attention-heatmap.js'),
    training: () => import('./zh/training.js'),
    'scoring-pipeline': () => import('./zh/scoring-pipeline.js'),
    'masked-softmax': () => import('./zh/masked-softmax.js'),
    'scoring-functions': () => import('./zh/scoring-functions.js'),
    'self-attention': () => import('./zh/self-attention.js'),
    translation: () => import('./zh/translation.js'),
    'multi-head': () => import('./zh/multi-head.js'),
    'positional-encoding': () => import('./zh/positional-encoding.js'),
    'attention-training': () => import('./zh/attention-training.js'),
  }),
});
