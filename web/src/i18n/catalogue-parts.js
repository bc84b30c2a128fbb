// Each language's catalogue in parts, each a module of its own, in the
// page's order: the page's shared strings (header, contents bar, loading
// line), the exercises' common ones, and one part per section, named by the
// section's id (sections/section-loaders.js). The page loads the shared
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
    heatmap: () => import('./en/heatmap.js'),
    training: () => import('./en/training.js'),
    pipeline: () => import('./en/pipeline.js'),
    masking: () => import('./en/masking.js'),
    scoring: () => import('./en/scoring.js'),
    'self-attention': () => import('./en/self-attention.js'),
    translation: () => import('./en/translation.js'),
    multihead: () => import('./en/multihead.js'),
    positional: () => import('./en/positional.js'),
    'attention-training': () => import('./en/attention-training.js'),
  }),
  zh: Object.freeze({
    shared: () => import('./zh/shared.js'),
    exercises: () => import('./zh/exercises.js'),
    cues: () => import('./zh/cues.js'),
    data: () => import('./zh/data.js'),
    pooling: () => import('./zh/pooling.js'),
    heatmap: () => import('./zh/heatmap.js'),
    training: () => import('./zh/training.js'),
    pipeline: () => import('./zh/pipeline.js'),
    masking: () => import('./zh/masking.js'),
    scoring: () => import('./zh/scoring.js'),
    'self-attention': () => import('./zh/self-attention.js'),
    translation: () => import('./zh/translation.js'),
    multihead: () => import('./zh/multihead.js'),
    positional: () => import('./zh/positional.js'),
    'attention-training': () => import('./zh/attention-training.js'),
  }),
});
