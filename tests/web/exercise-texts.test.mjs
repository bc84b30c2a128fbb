// Every text an exercise can put on screen, rendered in both languages as the
// exercise engine renders it (exercises/exercise-block.js): the question, its
// options and hint with the question's parameters, the feedback of every
// option (and of the numbers its solution names) with the check's, the
// answer shown, the teacher's note, and the lead paragraphs of every section
// that are not filled live (the live ones are checked on the page, in
// tests/browser/truthful-text.test.mjs). Each is read for an unfilled
// placeholder ("{away}"), for a parameter's name typeset as maths
// ("$\eta = lr$") and for a verdict said twice ("Right. Right."). Checks run
// against the real core (dist/attention-core.mjs) at the default settings
// and a few others, with the trained sections given a model trained here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { memoizeCore } from '../../web/src/core-memo.js';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { setLanguage, t, loadCatalogue } from '../../web/src/i18n/index.js';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import * as attentionTraining from '../../web/src/sections/attention-training/attention-training.js';
import * as translation from '../../web/src/sections/translation/setup.js';
import { PATTERN_MIN_STEPS } from '../../web/src/sections/attention-training/exercises.js';
import { EIGHT_MIN_STEPS } from '../../web/src/sections/translation/exercises.js';

await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);
const raw = await loadAttentionCore();
const core = memoizeCore(raw);

const VERDICT_KEYS = Object.freeze({ right: 'exercises.right', close: 'exercises.close', wrong: 'exercises.wrong' });

// A placeholder t() left unfilled: {name} not the argument of a TeX command
// (\mathbf{q}), a sub- or superscript (x_{ij}) or a group ({}{x}).
const UNFILLED = /(?<![\\\w^_}])\{(\w+)\}/g;
// The maths of a text: its $...$ spans, with \text{...} and \operatorname{...} dropped.
const mathsOf = (text) => [...text.matchAll(/\$([^$]+)\$/g)]
  .map(([, tex]) => tex.replace(/\\(?:text|operatorname|mathrm)\{[^}]*\}/g, ' '));
// A word in maths that is not a TeX command, nor a letter with an index (w_0).
const wordsInMaths = (tex) => [...tex.matchAll(/(?<![\\A-Za-z])[A-Za-z][A-Za-z0-9]+/g)].map(([word]) => word);

// The models the trained sections' checks read (view.trainedRun()), trained as the page's runs train them.
const CALL_STEPS = 25;
const trainedModels = new Map();
function trainedView(section, inputs, steps) {
  const name = JSON.stringify([section.id, inputs, steps]);
  if (!trainedModels.has(name)) {
    if (section.id === 'attention-training') {
      let model = raw.attentionModelInit(attentionTraining.modelConfig(inputs));
      model = raw.attentionModelTrain(model, attentionTraining.trainingOptions(inputs, steps)).model;
      trainedModels.set(name, { trainedRun: () => ({ model, step: steps, status: 'done', inputs }) });
    } else {
      // In calls of a few steps, as the page's run trains (a call's work is bounded).
      let model = raw.seq2seqInit(translation.modelConfig(inputs));
      let run = null;
      for (let done = 0; done < steps; done += CALL_STEPS) {
        run = raw.seq2seqTrain(model, { ...translation.trainingOptions(inputs, CALL_STEPS), evaluateAtEnd: done + CALL_STEPS >= steps });
        model = run.model;
      }
      trainedModels.set(name, {
        trainedRun: () => ({
          model, step: steps, status: 'done', inputs, heldOut: run.heldOutAccuracy, heldOutBleu: run.heldOutBleu, evaluatedAt: steps,
        }),
      });
    }
  }
  return trainedModels.get(name);
}

// The states each section's texts are rendered in: the defaults, and the
// settings its exercises ask for; the views its checks may read.
const STATES = {
  'attention-training': [{}, { atHeads: 1 }],
  translation: [{}, { trArchitecture: 'gru' }],
};
const TRAINED_STEPS = { 'attention-training': PATTERN_MIN_STEPS, translation: EIGHT_MIN_STEPS };
function viewsOf(section, inputs) {
  if (!TRAINED_STEPS[section.id]) return [undefined];
  return [{ trainedRun: () => null }, trainedView(section, inputs, TRAINED_STEPS[section.id])];
}

const inputsOf = (section, patch) => {
  const state = { ...defaultState(), ...patch };
  return Object.fromEntries((section.inputs ?? []).map((name) => [name, state[name]]));
};

// The answers tried: every option (and, for several, all of them), or the
// numbers the solution names (its right answer among them), each 5 % off,
// and a few others.
function answersOf(exercise, solutionText) {
  if (exercise.kind === 'achieve') return [undefined];
  if (exercise.options) {
    const ids = exercise.options.map(({ id }) => id);
    return exercise.multiple ? [...ids.map((id) => [id]), ids] : ids;
  }
  const named = [...solutionText.replaceAll(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?/g)].map(([n]) => Number(n));
  // Each named number a little off too, for the close feedback.
  return [...new Set([...named, ...named.map((n) => n * 1.05), 0, 1, 1e6])];
}

// Each text an exercise shows for one state, view and instance, as the engine renders it.
function renderExercise(exercise, inputs, view, instance) {
  const texts = [];
  const add = (where, text, params = {}) => texts.push({ where, text, params });
  const params = exercise.questionParams?.(instance, inputs) ?? {};
  add('question', t(exercise.questionKey, params), params);
  add('hint', t(exercise.hintKey, params), params);
  for (const option of exercise.options ?? []) {
    add(`option ${option.id}`, t(option.labelKey, params), params);
  }
  let solutionText = '';
  try {
    const solution = exercise.solution(core, inputs, instance, view);
    solutionText = solution.labelKey
      ? `${t('exercises.answerChoice', { choice: t(solution.labelKey) })} ${t(solution.explanationKey)}`
      : t('exercises.answerIs', { answer: t(solution.key, solution.params ?? {}) });
    add('answer shown', solutionText, solution.params);
  } catch (error) {
    add('answer shown (refused)', String(error.message));
  }
  for (const answer of answersOf(exercise, solutionText)) {
    try {
      const result = exercise.check(core, inputs, answer, instance, view);
      const feedback = t(result.key, result.params ?? {});
      add(`feedback to ${JSON.stringify(answer)} (${result.verdict})`, feedback, result.params);
      const verdict = t(VERDICT_KEYS[result.verdict]);
      texts.push({ where: `verdict and feedback to ${JSON.stringify(answer)}`, text: `**${verdict}** ${feedback}`, verdict, feedback });
    } catch (error) {
      add(`feedback to ${JSON.stringify(answer)} (cannot check)`, t('exercises.cannotCheck', { reason: String(error.message) }));
    }
  }
  return texts;
}

function renderAll(language) {
  setLanguage(language);
  const texts = [];
  for (const section of SECTIONS) {
    for (const key of section.frame.leadKeys ?? []) {
      if (!LIVE_LEADS.has(key)) texts.push({ where: `${section.id} lead ${key}`, text: t(key), names: section.inputs });
    }
    if (!section.exercises) continue;
    if (section.teacherNoteKey) texts.push({ where: `${section.id} teacher's note`, text: t(section.teacherNoteKey), names: section.inputs });
    for (const patch of STATES[section.id] ?? [{}]) {
      const inputs = inputsOf(section, patch);
      for (const view of viewsOf(section, inputs)) {
        for (const exercise of section.exercises) {
          const instances = exercise.draw ? [0, 1].map((index) => exercise.draw(core, inputs, index, view)) : [undefined];
          for (const instance of instances) {
            for (const text of renderExercise(exercise, inputs, view, instance)) {
              texts.push({ ...text, where: `${section.id}.${exercise.id} ${JSON.stringify(patch)} ${text.where}`, names: section.inputs });
            }
          }
        }
      }
    }
  }
  return texts;
}

// Leads filled from the section's inputs as it draws (training/live-lead.js): on the page only.
const LIVE_LEADS = new Set(['training.lead']);

const rendered = { en: renderAll('en'), zh: renderAll('zh') };
setLanguage('en');

for (const language of ['en', 'zh']) {
  test(`every exercise text and lead in ${language} is filled: no {name} left, no parameter's name as maths`, (t_) => {
    const texts = rendered[language];
    t_.diagnostic(`${texts.length} texts rendered in ${language}`);
    assert.ok(texts.length > 1000, `${texts.length} texts`);
    const problems = [];
    for (const { where, text, params, names } of texts) {
      const unfilled = [...text.matchAll(UNFILLED)].map(([whole]) => whole);
      if (unfilled.length > 0) problems.push(`${where}: ${unfilled.join(', ')} in “${text}”`);
      // A name of the section's settings or of the text's parameters, set as maths instead of its value.
      const parameterNames = new Set([...(names ?? []), ...Object.keys(params ?? {})].filter((name) => name.length > 1));
      for (const tex of mathsOf(text)) {
        const named = wordsInMaths(tex).filter((word) => parameterNames.has(word));
        if (named.length > 0) problems.push(`${where}: ${named.join(', ')} typeset in $${tex}$`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test(`no feedback in ${language} repeats its verdict (“Right. Right.”)`, () => {
    const repeated = rendered[language]
      .filter(({ verdict, feedback }) => verdict && feedback.trimStart().startsWith(verdict))
      .map(({ where, text }) => `${where}: ${text}`);
    assert.deepEqual(repeated, []);
  });
}

// The verdict word is the engine's (exercises.right, .close, .wrong, in
// bold before the feedback): a feedback text that opens with a verdict of
// its own says it twice ("Not yet. Not yet:", "正确。 正确："), or says two
// ("Not yet. Close to …"). Every feedback a check returns, for every answer
// tried, and every concept option's explanation (its feedback) is held to it.
const VERDICT_OPENINGS = {
  en: /^(?:\*\*)?(?:right|close|not yet|not quite|wrong|correct|incorrect)\b/i,
  zh: /^(?:\*\*)?(?:正确|接近|还不对|不太对|不对|错误|错了)/,
};

for (const language of ['en', 'zh']) {
  test(`no feedback in ${language} opens with a verdict word: the engine says it, once`, () => {
    const own = rendered[language]
      .filter(({ verdict, feedback }) => verdict && VERDICT_OPENINGS[language].test(feedback.trimStart()))
      .map(({ where, text }) => `${where}: ${text}`);
    assert.deepEqual(own, []);
    // And every exercise text of the catalogue, reached here or not (a
    // check that needs the page, like the row taken apart), but for the
    // questions, hints and options' labels ("Right at the bottom").
    const asking = new Set(SECTIONS.flatMap((section) => (section.exercises ?? []).flatMap((exercise) => [
      exercise.questionKey, exercise.hintKey, ...(exercise.options ?? []).map((option) => option.labelKey)])));
    const catalogue = assembleCatalogue(language);
    const opening = Object.keys(catalogue)
      .filter((key) => /\.ex\./.test(key) && !asking.has(key) && VERDICT_OPENINGS[language].test(catalogue[key]))
      .map((key) => `${key}: ${catalogue[key]}`);
    assert.deepEqual(opening, []);
  });
}

// A number as a token of a text: not a part of a longer number.
const saysNumber = (text, number) => new RegExp(`(?<![\\d.,])${number.replaceAll('.', '\\.')}(?![\\d]|[.,]\\d)`).test(text.replaceAll('−', '-'));

// An achieve goal whose solution reports the state on screen (the run's
// accuracy), which its feedback may say: the setting that reaches it is the answer.
const READS_THE_STATE = new Set(['translation.exact-match']);

// A first wrong (or close) answer names the mistake and points where to
// look; the right number appears only once right, or when revealed. For a
// prediction the one try reveals its answer at once, so this holds the other
// kinds: a compute exercise's feedback does not say the number judged right,
// and an achieve goal's does not say the decimals of its solution (where the
// goal is reached); a number the question or hint already says is no secret.
function giveaways(language) {
  setLanguage(language);
  const found = [];
  for (const section of SECTIONS) {
    for (const exercise of section.exercises ?? []) {
      if (exercise.kind !== 'compute' && exercise.kind !== 'achieve') continue;
      for (const patch of STATES[section.id] ?? [{}]) {
        const inputs = inputsOf(section, patch);
        for (const view of viewsOf(section, inputs)) {
          const instances = exercise.draw ? [0, 1].map((index) => exercise.draw(core, inputs, index, view)) : [undefined];
          for (const instance of instances) {
            let solutionText;
            try {
              const solution = exercise.solution(core, inputs, instance, view);
              solutionText = t(solution.key, solution.params ?? {});
            } catch {
              continue;
            }
            const said = [...solutionText.replaceAll('−', '-').matchAll(/-?\d+(?:\.\d+)?/g)].map(([n]) => n);
            const params = exercise.questionParams?.(instance, inputs) ?? {};
            const asked = `${t(exercise.questionKey, params)} ${t(exercise.hintKey, params)}`;
            const check = (answer) => {
              try {
                return exercise.check(core, inputs, answer, instance, view);
              } catch {
                return null;
              }
            };
            if (READS_THE_STATE.has(`${section.id}.${exercise.id}`)) continue;
            const secret = said.filter((n) => !saysNumber(asked, n)
              && (exercise.kind === 'compute' ? check(Number(n))?.verdict === 'right' : n.includes('.')));
            if (secret.length === 0) continue;
            const answers = exercise.kind === 'compute'
              ? [...new Set([...said.map(Number), 0, 1, 1e6])].flatMap((n) => [n, n * 1.05])
              : [undefined];
            for (const answer of answers) {
              const result = check(answer);
              if (!result || result.verdict === 'right') continue;
              const text = t(result.key, result.params ?? {});
              const told = secret.filter((n) => saysNumber(text, n));
              if (told.length > 0) found.push(`${section.id}.${exercise.id} ${JSON.stringify(patch)} to ${answer} (${result.verdict}) says ${told.join(', ')}: ${text}`);
            }
          }
        }
      }
    }
  }
  return found;
}

for (const language of ['en', 'zh']) {
  test(`in ${language}, a wrong or close answer is not told the right number`, () => {
    assert.deepEqual(giveaways(language), []);
  });
}

test('the feedback found giving the answer away now points where to look instead', () => {
  setLanguage('en');
  const removal = t('attention-training.ex.removal.wrong', { head: 4, without: '93.1', whole: '96.2', drop: '3.1' });
  assert.doesNotMatch(removal, /\{best|\{bestWithout/);
  assert.match(removal, /Compare the maps/);
  assert.doesNotMatch(t('attention-training.ex.removal.spare'), /\{best/);
  assert.doesNotMatch(t('translation.ex.weight.close'), /\{weight\}/);
  assert.doesNotMatch(t('translation.ex.weight.wrong'), /\{weight\}/);
  assert.doesNotMatch(t('multihead.ex.important.close'), /\{best/);
  assert.doesNotMatch(t('steps.ex.ratio.close'), /\{ratio\}/);
  for (const language of ['en', 'zh']) {
    setLanguage(language);
    for (const key of ['steps.ex.ratio.close', 'steps.ex.ratio.wrong', 'translation.ex.weight.close', 'translation.ex.weight.wrong']) {
      assert.doesNotMatch(t(key), VERDICT_OPENINGS[language], `${language} ${key}`);
    }
  }
  setLanguage('en');
});

test('the scan reaches the texts found unfilled before, now with their values', () => {
  setLanguage('en');
  const find = (where) => rendered.en.find((text) => text.where.includes(where));
  assert.match(find('training.first-step {} question').text, /from \$w_0 = 1\$ with \$\\eta = 0\.5\$/);
  assert.match(find('training.first-step {} option away').text, /\|w\| beyond 40\)/);
  assert.match(find('training.without-loo {} question').text, /from \$w_0 = 1\$ when/);
  assert.match(find('scoring.scaling-trend {} question').text, /over m = 10 keys/);
  assert.match(find('multihead.parameter-count {} question').text, /\$H\$ = 100 and \$n_h\$ = 5 heads/);
  const zh = (where) => rendered.zh.find((text) => text.where.includes(where));
  assert.match(zh('training.first-step {} option away').text, /超过 40/);
});
