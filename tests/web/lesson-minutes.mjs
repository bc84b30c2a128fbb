// The figures of the lesson plan (docs/lesson-plan.md, docs/lesson-plan.zh.md),
// measured from the lab's own files: each section's exercises by kind (its
// declaration), the text a learner reads in it (its catalogue part, both
// languages) and whether it trains a model in the page. The rates that turn
// them into minutes are the plan's assumptions, stated in the page.
// `node tests/web/lesson-minutes.mjs` prints the page's generated parts
// (the table and the prediction notes) to paste after a catalogue changes.
import { SECTIONS } from '../../web/src/sections/registry.js';
import { CATALOGUE_FILES } from '../../web/src/i18n/catalogue-files.js';
import { defaultState } from '../../web/src/state.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';

// The plan's assumptions (the page states each).
export const WORDS_PER_MINUTE = 200;
export const CHARACTERS_PER_MINUTE = 300;
export const EXERCISE_MINUTES = Object.freeze({ predict: 2, concept: 2, compute: 3, achieve: 3 });
// A training run to its target at the defaults, measured in the page on a
// 2-core machine (docs/learning-and-teaching.md); each exercise of a trained
// section asks for at most one run.
export const RUN_SECONDS = 10;
export const PLAN_KINDS = Object.freeze(['predict', 'concept', 'compute', 'achieve']);

// What a reader sees of a catalogue string: no TeX (KaTeX draws symbols, not
// words), no placeholders or cross-references, no emphasis marks.
export const readable = (text) => text
  .replace(/\$[^$]+\$/g, ' ')
  .replace(/\{[^}]*\}/g, ' ')
  .replace(/\*+/g, '');
export const englishWords = (text) => readable(text).split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
export const hanCharacters = (text) => (readable(text).match(/\p{Script=Han}/gu) ?? []).length;

// The texts a learner reads in a section: its catalogue part without its
// exercises' keys (counted as exercise time) and without the `.alone` twins
// (read instead of the original in a lab of one section, never both).
export function sectionTexts(id, language) {
  const part = CATALOGUE_FILES[id][language];
  return Object.entries(part)
    .filter(([key]) => !key.startsWith(`${id}.ex.`) && !key.endsWith('.alone'))
    .map(([, text]) => text);
}

// A section trains a model in the page when it needs the core's models and
// its compute() hands the view a model's first state for a run to train.
const core = await loadAttentionCore();
const state = defaultState();
export function trainsModel(section) {
  if (section.corePart !== 'models' || !section.compute) return false;
  const inputs = Object.fromEntries((section.inputs ?? []).map((name) => [name, state[name]]));
  return section.compute(core, inputs)?.model0 !== undefined;
}

const sum = (values) => values.reduce((total, value) => total + value, 0);

export const LESSON_ROWS = Object.freeze(SECTIONS.map((section, index) => {
  const exercises = section.exercises ?? [];
  const kinds = Object.fromEntries(PLAN_KINDS.map((kind) => [kind, exercises.filter((exercise) => exercise.kind === kind).length]));
  const words = sum(sectionTexts(section.id, 'en').map(englishWords));
  const characters = sum(sectionTexts(section.id, 'zh').map(hanCharacters));
  const trains = trainsModel(section);
  const exerciseMinutes = sum(PLAN_KINDS.map((kind) => kinds[kind] * EXERCISE_MINUTES[kind]));
  const training = trains ? Math.ceil((exercises.length * RUN_SECONDS) / 60) : 0;
  const minutes = {
    en: Math.round(words / WORDS_PER_MINUTE + exerciseMinutes + training),
    zh: Math.round(characters / CHARACTERS_PER_MINUTE + exerciseMinutes + training),
  };
  return Object.freeze({
    number: index + 1, id: section.id, kinds, words, characters, trains, training, minutes,
    // One plan for either language's class: the longer of the two.
    plan: Math.max(minutes.en, minutes.zh),
  });
}));

export const minutesOf = (ids) => sum(ids.map((id) => LESSON_ROWS.find((row) => row.id === id).plan));

// Each prediction, in the sections' order, with what the teacher asks first.
export const PREDICTIONS = Object.freeze(SECTIONS.flatMap((section) => (section.exercises ?? [])
  .filter(({ kind }) => kind === 'predict')
  .map((exercise) => ({ id: `${section.id}.${exercise.id}`, section: section.id, questionKey: exercise.questionKey, teacherNoteKey: section.teacherNoteKey }))));

const text = (key, language) => {
  const part = Object.values(CATALOGUE_FILES).find((file) => Object.hasOwn(file[language], key));
  return part[language][key].replace(/\s+/g, ' ').trim();
};
export const catalogueText = text;

// The page's table row of a section, as the test parses it back.
export const tableRow = (row, language) => {
  const title = text(`${row.id}.title`, language).replace(/\|/g, '\\|');
  return `| ${row.number} | \`${row.id}\` ${title} | ${PLAN_KINDS.map((kind) => row.kinds[kind]).join(' | ')} | ${row.words} | ${row.characters} | ${row.training} | ${row.minutes.en} | ${row.minutes.zh} | ${row.plan} |`;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const language of ['en', 'zh']) {
    console.log(`\n==== ${language}: table\n`);
    for (const row of LESSON_ROWS) console.log(tableRow(row, language));
    console.log(`\nall sections: ${minutesOf(LESSON_ROWS.map(({ id }) => id))}; trained: ${LESSON_ROWS.filter(({ trains }) => trains).map(({ id }) => id)}`);
    console.log(`\n==== ${language}: predictions\n`);
    let section = null;
    for (const prediction of PREDICTIONS) {
      if (prediction.section !== section) {
        section = prediction.section;
        console.log(`\n### ${text(`${section}.title`, language)}\n\n${text(prediction.teacherNoteKey, language)}\n`);
      }
      console.log(`- \`${prediction.id}\`: ${text(prediction.questionKey, language)}`);
    }
  }
}
