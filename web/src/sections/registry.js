// @ts-check
// The page's sections, in the book's order. The page (main.js), its iframe
// mode (#embed=<id>) and the <attention-lab section="<id>"> element all mount
// sections from this one list (mount.js), so a section added here gets the
// URL hash, embedding and export with no further wiring. The page loads
// them through section-loaders.js (the same list, each section's code
// loaded when needed): add a section there too.
//
// A section is one declaration, a SectionDeclaration below; its exercises'
// fields are exercises/exercise-declaration.js's. tsc checks SECTIONS
// against them (tests/web/declaration-types.test.mjs).
// Figures need no declaration: every figure kind registers its own export
// menu (PNG, SVG and, with data, CSV); a data-figure name on its element
// gives the files readable names.

/**
 * The shared skeleton (frame.js): the title, the lead paragraphs, and
 * whether it has a controls panel (true unless false).
 * @typedef {object} SectionFrame
 * @property {string} titleKey
 * @property {readonly string[]} [leadKeys]
 * @property {boolean} [controls]
 */

/**
 * Where a core error about an argument shows (section-errors.js): a
 * parameter's control, a list indexed by the error's index, a function of the
 * inputs giving either, or null for the section's own slot.
 * @typedef {string | null | readonly (string | null)[] | ((inputs: SectionInputs) => string | null | readonly (string | null)[])} ErrorRoute
 */

/**
 * The section's inputs by name (any: a declaration destructures the names it reads).
 * @typedef {any} SectionInputs
 */

/**
 * @typedef {object} SectionDeclaration
 * @property {string} id its <section> id in index.html, and the `section` /
 *   `embed` value in the hash
 * @property {SectionFrame} frame
 * @property {readonly string[]} [inputs] the parameters (state.js) its
 *   numbers depend on, listed once: the mount redraws the section when one of
 *   them (or the language) changes, asks compute() again only when their
 *   values changed, and routes a core error about an argument of the same
 *   name to that parameter's control
 * @property {Record<string, ErrorRoute>} [arguments] the core arguments
 *   named otherwise, mapped to the parameter whose control shows their errors
 * @property {(error: any, inputs: SectionInputs, core: any) => string | undefined} [explain]
 *   a core error in the page's language, by its fields (else the text is
 *   built from them)
 * @property {(context: { frame: any, store: any, controls: any, core: any, errors: any, alone: boolean }) => any} create
 *   builds the controls and figures once, and returns the view (core: for
 *   sections that compute on their own clock, like a training run; alone: the
 *   lab shows this section only, as in a course page); a view that runs on
 *   its own clock has dispose(), which the mount calls when the section goes
 *   away (its element left the page); one whose answers read what it
 *   measures or trains on that clock has watchAnswers(changed), which the
 *   teacher's screen (exercises=answers) calls: made now, changed() each
 *   time there is more
 * @property {(core: any, inputs: SectionInputs) => any} [compute]
 *   every number the section draws, asked of the core
 * @property {(view: any, result: any, inputs: SectionInputs, changed: Set<string>) => void} [draw]
 *   puts the result on screen; it is handed no core, but a view that took
 *   the core in create() may call it here for what the result leaves open
 *   (masking/masking.js masks the scores the learner typed over the result's)
 * @property {(state: SectionInputs, core: any, section: any) => string} [pytorch]
 *   "Copy as PyTorch" (section: this declaration)
 * @property {boolean} [needsModels] true when the section calls the
 *   trainable models (attentionModel*, attentionTask*, seq2seq*), which come
 *   in the core's second part: the mount builds it once that part is loaded
 * @property {readonly import('../exercises/exercise-declaration.js').ExerciseDeclaration[]} [exercises]
 *   shown below its figures by the exercise engine (web/src/exercises/),
 *   which the mount wires
 * @property {string} [teacherNoteKey] with exercises: the note shown above
 *   them on the teacher's screen (exercises=answers): what to ask, the common
 *   misconception and where the figure shows it
 */

import { cuesSection } from './cues/cues.js';
import { dataSection } from './data/data.js';
import { poolingSection } from './pooling/pooling.js';
import { heatmapSection } from './heatmap/heatmap.js';
import { trainingSection } from './training/training.js';
import { pipelineSection } from './pipeline/pipeline.js';
import { maskingSection } from './masking/masking.js';
import { scoringSection } from './scoring/scoring.js';
import { selfAttentionSection } from './self-attention/self-attention.js';
import { translationSection } from './translation/translation.js';
import { multiheadSection } from './multihead/multihead.js';
import { positionalSection } from './positional/positional.js';
import { attentionTrainingSection } from './attention-training/attention-training.js';
import { SECTION_IDS as LOADED_IDS, sectionNumber } from './section-loaders.js';

/** @type {readonly SectionDeclaration[]} */
export const SECTIONS = Object.freeze([
  cuesSection,
  dataSection,
  poolingSection,
  heatmapSection,
  trainingSection,
  pipelineSection,
  maskingSection,
  scoringSection,
  selfAttentionSection,
  // Attention between two sequences (d2l 10.4), trained: where attention began, before the Transformer's parts.
  translationSection,
  multiheadSection,
  positionalSection,
  // Last: its model adds the positional encoding, which solves reverse alone.
  attentionTrainingSection,
]);

export const SECTION_IDS = SECTIONS.map(({ id }) => id);
if (SECTION_IDS.join() !== LOADED_IDS.join()) throw new Error('sections/registry.js and section-loaders.js must list the same sections in the same order');

// A section's number: its place in this list (its title shows it, and the
// catalogue's cross-references {§id} quote it).
export { sectionNumber };
