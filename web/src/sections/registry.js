// The page's sections, in the book's order: [id, create, declarations?].
// The page (main.js), the iframe embed mode (#embed=<id>) and the
// <attention-lab section="<id>"> element all build sections from this one
// list, so a section added here gets the URL hash, embedding and export
// without further wiring. `id` is also the id of its <section> in
// index.html and the `section` / `embed` value in the hash.
//
// Optional declarations (third entry), read by embed.js and export.js:
//   pytorch(state, computations) -> string   "Copy as PyTorch" for this section
//                                            (a button appears in the section)
// Figures need no declaration: every line plot and heatmap registers itself
// (figures/export-registry.js) and gets PNG, SVG and CSV export; give its
// element a data-figure name for readable file names.
import { createCuesSection } from './cues.js';
import { createDataSection } from './data.js';
import { createPoolingSection } from './pooling.js';
import { createAttentionHeatmapSection } from './attention-heatmap.js';
import { createTrainingSection } from './training.js';
import { poolingSnippet } from '../pytorch.js';
// Issue 4: scoring functions, multi-head attention, positional encoding.
import { createScoringPipelineSection } from './scoring-pipeline.js';
import { createMaskedSoftmaxSection } from './masked-softmax.js';
import { createScoringFunctionsSection } from './scoring-functions.js';
import { createMultiHeadSection } from './multi-head.js';
import { createPositionalEncodingSection } from './positional-encoding.js';

export const SECTIONS = [
  ['cues', createCuesSection],
  ['data', createDataSection, { pytorch: poolingSnippet }],
  ['pooling', createPoolingSection, { pytorch: poolingSnippet }],
  ['heatmap', createAttentionHeatmapSection, { pytorch: poolingSnippet }],
  ['training', createTrainingSection, { pytorch: poolingSnippet }],
  ['pipeline', createScoringPipelineSection],
  ['masking', createMaskedSoftmaxSection],
  ['scoring', createScoringFunctionsSection],
  ['multihead', createMultiHeadSection],
  ['positional', createPositionalEncodingSection],
];

export const SECTION_IDS = SECTIONS.map(([id]) => id);
