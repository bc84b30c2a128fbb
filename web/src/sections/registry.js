// @ts-check
// The page's sections, every declaration imported at once, in the page's
// order (the element, SCORM's launch, the build and the tests; the page
// itself loads each when needed through section-loaders.js). The page
// (main.js), its iframe mode (#embed=<id>) and the <attention-lab
// section="<id>"> element all mount sections from this list (mount.js).
//
// A section is one declaration, a SectionDeclaration below, in a folder of
// its own: web/src/sections/<id>/<id>.js, with its catalogue part in each
// language, web/src/i18n/{en,zh}/<id>.js. Nothing else names it: the build
// derives the lists (web/build-steps/section-list.mjs writes generated/),
// the page's nav and its <section> elements from the folders and their
// declarations. Its exercises' fields are exercises/exercise-declaration.js's.
// tsc checks SECTIONS against them (tests/web/declaration-types.test.mjs).
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
 * @property {string} id its folder's name, its <section> id in the page,
 *   and the `section` / `embed` value in the hash
 * @property {number} order its place in the page, in the books' order:
 *   sections are shown by increasing order (tens, so one fits between two)
 * @property {import('../book-links.js').BookSubsections} book the
 *   subsection that teaches it in the English book (d2l.ai) and the Chinese
 *   one (zh.d2l.ai), linked below its figures
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
 * @property {string} [corePart] the part of the core it computes with, one
 *   of core-files.js's CORE_PARTS (the build checks it; the basics unless
 *   said): 'models' when
 *   it calls the trainable models (attentionModel*, attentionTask*,
 *   seq2seq*), 'cues' when it calls no more than the cues' part's functions
 *   (the page's first screen waits for that smaller part); the mount builds
 *   it once that part is loaded
 * @property {readonly import('../exercises/exercise-declaration.js').ExerciseDeclaration[]} [exercises]
 *   shown below its figures by the exercise engine (web/src/exercises/),
 *   which the mount wires
 * @property {string} [teacherNoteKey] with exercises: the note shown above
 *   them on the teacher's screen (exercises=answers): what to ask, the common
 *   misconception and where the figure shows it
 */

import { SECTIONS as DECLARED } from '../generated/section-list.js';
import { sectionNumber } from './section-loaders.js';

// Typed here, so tsc holds every declaration to SectionDeclaration.
/** @type {readonly SectionDeclaration[]} */
export const SECTIONS = DECLARED;
export const SECTION_IDS = SECTIONS.map(({ id }) => id);
export { sectionNumber };
