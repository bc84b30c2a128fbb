// The page's sections, in the book's order. The page (main.js), its iframe
// mode (#embed=<id>) and the <attention-lab section="<id>"> element all mount
// sections from this one list (mount.js), so a section added here gets the
// URL hash, embedding and export with no further wiring. The page loads
// them through section-loaders.js (the same list, each section's code
// loaded when needed): add a section there too.
//
// A section is one declaration:
//   id        its <section> id in index.html, and the `section` / `embed`
//             value in the hash
//   frame     { titleKey, leadKeys, controls }: the shared skeleton (frame.js)
//   inputs    the parameters (state.js) its numbers depend on, listed once:
//             the mount redraws the section when one of them (or the
//             language) changes, asks compute() again only when their values
//             changed, and routes a core error about an argument of the same
//             name to that parameter's control
//   arguments optional: the core arguments named otherwise, mapped to the
//             parameter whose control shows their errors (a name, a list
//             indexed by the error's index, or a function of the inputs)
//   create({ frame, store, controls, core, errors, alone }) -> view
//             builds the controls and figures once (core: for sections that
//             compute on their own clock, like a training run; alone: the
//             lab shows this section only, as in a course page); a view
//             that runs on its own clock has dispose(), which the mount
//             calls when the section goes away (its element left the page)
//   compute(core, inputs) -> result
//             every number the section draws, asked of the core
//   draw(view, result, inputs, changed)
//             puts the result on screen; it is handed no core, but a view
//             that took the core in create() may call it here for what the
//             result leaves open (masked-softmax.js masks the scores the
//             learner typed over the result's)
//   pytorch   optional (state, core, section) -> string: "Copy as PyTorch"
//   needsModels optional: true when the section calls the trainable models
//             (attentionModel*, attentionTask*, seq2seq*), which come in the
//             core's second part: the mount builds it once that part is loaded
//   exercises optional: the section's exercises, shown below its figures by
//             the exercise engine (web/src/exercises/), which the mount
//             wires. Each is
//               { id, kind: 'concept' | 'compute' | 'achieve' | 'predict',
//                 questionKey, hintKey,
//                 options?   [{ id, labelKey, explanationKey? }]: radios
//                   (a concept option explains itself),
//                 multiple?  true: checkboxes (a prediction of several),
//                 hides?     ['<data-figure name>']: a prediction's figures,
//                   covered while it is open (it stands above the first),
//                 startedBy? ['<data-action>']: the controls that start what
//                   the text says to watch: they show the figures at once,
//                   the prediction marked skipped (and a prediction checked
//                   before its run is committed, checked once trained),
//                 check(core, inputs, answer, instance, view)
//                   -> { verdict: 'right' | 'close' | 'wrong', key, params? }
//                   or mistake(key, params) (judging.js): always 'wrong',
//                 solution(core, inputs, instance, view) -> { key, params? }
//                   (or { labelKey, explanationKey } for a choice),
//                 draw?(core, inputs, index, view) -> instance: "Try another",
//                 questionParams?(instance, inputs) (the question's,
//                   hint's and options' placeholders), mark?(view, instance) }
//             answer: an option's id (their ids, for several), a number
//             (compute, predict without options), or nothing for achieve
//             (the section's state is the answer). view: the section's
//             view, for what it alone holds (a trained model). Every right
//             answer that depends on the data or the settings is asked of
//             the core for the inputs drawn; check() and solution() are
//             cheap (a teacher's screen calls solution() on every redraw)
//             and never train; a concept question is made with
//             conceptExercise() (exercises/judging.js). A prediction has
//             one try.
//   teacherNoteKey with exercises: the note shown above them on the
//             teacher's screen (exercises=answers): what to ask, the
//             common misconception and where the figure shows it
// Figures need no declaration: every figure kind registers its own export
// menu (PNG, SVG and, with data, CSV); a data-figure name on its element
// gives the files readable names.
import { cuesSection } from './cues/cues.js';
import { dataSection } from './data/data.js';
import { poolingSection } from './pooling/pooling.js';
import { attentionHeatmapSection } from './heatmap/heatmap.js';
import { trainingSection } from './training/training.js';
import { scoringPipelineSection } from './pipeline/pipeline.js';
import { maskedSoftmaxSection } from './masking/masking.js';
import { scoringFunctionsSection } from './scoring/scoring.js';
import { selfAttentionSection } from './self-attention/self-attention.js';
import { translationSection } from './translation/translation.js';
import { multiHeadSection } from './multihead/multihead.js';
import { positionalEncodingSection } from './positional/positional.js';
import { attentionTrainingSection } from './attention-training/attention-training.js';
import { SECTION_IDS as LOADED_IDS, sectionNumber } from './section-loaders.js';

export const SECTIONS = Object.freeze([
  cuesSection,
  dataSection,
  poolingSection,
  attentionHeatmapSection,
  trainingSection,
  scoringPipelineSection,
  maskedSoftmaxSection,
  scoringFunctionsSection,
  selfAttentionSection,
  // Attention between two sequences (d2l 10.4), trained: where attention began, before the Transformer's parts.
  translationSection,
  multiHeadSection,
  positionalEncodingSection,
  // Last: its model adds the positional encoding, which solves reverse alone.
  attentionTrainingSection,
]);

export const SECTION_IDS = SECTIONS.map(({ id }) => id);
if (SECTION_IDS.join() !== LOADED_IDS.join()) throw new Error('sections/registry.js and section-loaders.js must list the same sections in the same order');

// A section's number: its place in this list (its title shows it, and the
// catalogue's cross-references {§id} quote it).
export { sectionNumber };
