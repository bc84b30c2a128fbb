// The page's sections as { id, file, load }, in the book's order (the order
// of registry.js, which tests/web/section-loaders.test.mjs checks): load()
// resolves to the section's declaration (<id>/<id>.js); `file` names its
// catalogue part (i18n/catalogue-parts.js, the id too), which the page loads
// with it.
// The page over http loads each section's code when it is needed (a chunk
// of its own, with the figures and libraries only it uses), so the first
// screen waits only for its own sections; the rest arrive while the
// learner reads (mount.js). Bundled
// into one classic script (a page opened from disk, the element), load()
// resolves at once.
import { registerSections } from '../i18n/index.js';

export const SECTION_LOADERS = Object.freeze([
  { id: 'cues', file: 'cues', load: () => import('./cues/cues.js').then((module) => module.cuesSection) },
  { id: 'data', file: 'data', load: () => import('./data/data.js').then((module) => module.dataSection) },
  { id: 'pooling', file: 'pooling', load: () => import('./pooling/pooling.js').then((module) => module.poolingSection) },
  { id: 'heatmap', file: 'heatmap', load: () => import('./heatmap/heatmap.js').then((module) => module.attentionHeatmapSection) },
  { id: 'training', file: 'training', load: () => import('./training/training.js').then((module) => module.trainingSection) },
  { id: 'pipeline', file: 'pipeline', load: () => import('./pipeline/pipeline.js').then((module) => module.scoringPipelineSection) },
  { id: 'masking', file: 'masking', load: () => import('./masking/masking.js').then((module) => module.maskedSoftmaxSection) },
  { id: 'scoring', file: 'scoring', load: () => import('./scoring/scoring.js').then((module) => module.scoringFunctionsSection) },
  { id: 'self-attention', file: 'self-attention', load: () => import('./self-attention/self-attention.js').then((module) => module.selfAttentionSection) },
  { id: 'translation', file: 'translation', load: () => import('./translation/translation.js').then((module) => module.translationSection) },
  { id: 'multihead', file: 'multihead', load: () => import('./multihead/multihead.js').then((module) => module.multiHeadSection) },
  { id: 'positional', file: 'positional', load: () => import('./positional/positional.js').then((module) => module.positionalEncodingSection) },
  { id: 'attention-training', file: 'attention-training', load: () => import('./attention-training/attention-training.js').then((module) => module.attentionTrainingSection) },
]);

export const SECTION_IDS = SECTION_LOADERS.map(({ id }) => id);

// A section's number: its place in this list (its title shows it, and the
// catalogue's cross-references {§id} quote it).
export const sectionNumber = (id) => SECTION_IDS.indexOf(id) + 1;
registerSections(SECTION_LOADERS);
