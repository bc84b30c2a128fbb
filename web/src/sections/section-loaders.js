// The page's sections as { id, load }, in the book's order (the order of
// registry.js, which tests/web/section-loaders.test.mjs checks): load()
// resolves to the section's declaration (<id>/<id>.js); its catalogue part
// (i18n/catalogue-parts.js) is named by the id too, and the page loads it
// with it.
// The page over http loads each section's code when it is needed (a chunk
// of its own, with the figures and libraries only it uses), so the first
// screen waits only for its own sections; the rest arrive while the
// learner reads (mount.js). Bundled
// into one classic script (a page opened from disk, the element), load()
// resolves at once.
import { registerSections } from '../i18n/index.js';

export const SECTION_LOADERS = Object.freeze([
  { id: 'cues', load: () => import('./cues/cues.js').then((module) => module.cuesSection) },
  { id: 'data', load: () => import('./data/data.js').then((module) => module.dataSection) },
  { id: 'pooling', load: () => import('./pooling/pooling.js').then((module) => module.poolingSection) },
  { id: 'heatmap', load: () => import('./heatmap/heatmap.js').then((module) => module.heatmapSection) },
  { id: 'training', load: () => import('./training/training.js').then((module) => module.trainingSection) },
  { id: 'pipeline', load: () => import('./pipeline/pipeline.js').then((module) => module.pipelineSection) },
  { id: 'masking', load: () => import('./masking/masking.js').then((module) => module.maskingSection) },
  { id: 'scoring', load: () => import('./scoring/scoring.js').then((module) => module.scoringSection) },
  { id: 'self-attention', load: () => import('./self-attention/self-attention.js').then((module) => module.selfAttentionSection) },
  { id: 'translation', load: () => import('./translation/translation.js').then((module) => module.translationSection) },
  { id: 'multihead', load: () => import('./multihead/multihead.js').then((module) => module.multiheadSection) },
  { id: 'positional', load: () => import('./positional/positional.js').then((module) => module.positionalSection) },
  { id: 'attention-training', load: () => import('./attention-training/attention-training.js').then((module) => module.attentionTrainingSection) },
]);

export const SECTION_IDS = SECTION_LOADERS.map(({ id }) => id);

// A section's number: its place in this list (its title shows it, and the
// catalogue's cross-references {§id} quote it).
export const sectionNumber = (id) => SECTION_IDS.indexOf(id) + 1;
registerSections(SECTION_LOADERS);
