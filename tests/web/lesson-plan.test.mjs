// The lesson plan for teachers (docs/lesson-plan.md and its Chinese twin)
// against the lab: its table of minutes per section, recomputed from the
// sections' declarations and catalogues (lesson-minutes.mjs); the paths'
// sums and budgets; the sections it says train a model; and every
// prediction with its question and the section's teacher's note. After a
// catalogue or an exercise changes, `node tests/web/lesson-minutes.mjs`
// prints the page's generated parts again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SECTION_IDS } from '../../web/src/sections/registry.js';
import {
  LESSON_ROWS, PREDICTIONS, PLAN_KINDS, EXERCISE_MINUTES, WORDS_PER_MINUTE, CHARACTERS_PER_MINUTE, RUN_SECONDS,
  minutesOf, catalogueText,
} from './lesson-minutes.mjs';

const PAGES = { en: 'docs/lesson-plan.md', zh: 'docs/lesson-plan.zh.md' };
const REGENERATE = 'node tests/web/lesson-minutes.mjs prints the current figures';
const pages = Object.fromEntries(await Promise.all(Object.entries(PAGES).map(async ([language, file]) => [language, await readFile(file, 'utf8')])));
const lines = (language) => pages[language].split('\n');
const rowById = Object.fromEntries(LESSON_ROWS.map((row) => [row.id, row]));

const ZH_KINDS = { predict: '预测', concept: '概念', compute: '计算', achieve: '动手实现' };
// The assumptions as each page states them, built from the module's constants.
const ASSUMPTIONS = {
  en: [
    `${WORDS_PER_MINUTE} English words a minute`, `${CHARACTERS_PER_MINUTE} Chinese characters a minute`,
    ...PLAN_KINDS.map((kind) => `${kind} ${EXERCISE_MINUTES[kind]} min`), `${RUN_SECONDS} s a run`,
  ],
  zh: [
    `每分钟 ${WORDS_PER_MINUTE} 个英文单词`, `每分钟 ${CHARACTERS_PER_MINUTE} 个汉字`,
    ...PLAN_KINDS.map((kind) => `${ZH_KINDS[kind]} ${EXERCISE_MINUTES[kind]} 分钟`), `每次 ${RUN_SECONDS} 秒`,
  ],
};
const ALL_SECTIONS = { en: /All sections together: (\d+) minutes/, zh: /全部部分合计 (\d+) 分钟/ };
const TRAINED = { en: '**Sections that train a model:**', zh: '**训练模型的部分：**' };

for (const language of Object.keys(PAGES)) {
  test(`${PAGES[language]}: the table gives each section its measured figures and minutes`, () => {
    const rows = lines(language).filter((line) => /^\| \d+ \| `/.test(line)).map((line) =>
      line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
    assert.deepEqual(rows.map((cells) => /^`([\w-]+)`/.exec(cells[1])[1]), SECTION_IDS, 'every section, in the lab\'s order');
    for (const cells of rows) {
      const row = rowById[/^`([\w-]+)`/.exec(cells[1])[1]];
      const expected = [row.number, ...PLAN_KINDS.map((kind) => row.kinds[kind]), row.words, row.characters,
        row.training, row.minutes.en, row.minutes.zh, row.plan];
      assert.deepEqual([cells[0], ...cells.slice(2)].map(Number), expected,
        `${row.id}: §, ${PLAN_KINDS.join(', ')}, words, characters, training, minutes en, zh, plan (${REGENERATE})`);
    }
    const [, all] = ALL_SECTIONS[language].exec(pages[language]) ?? [];
    assert.equal(Number(all), minutesOf(SECTION_IDS), 'the whole lab\'s minutes');
  });

  test(`${PAGES[language]}: it states the rates the minutes are computed with`, () => {
    for (const phrase of ASSUMPTIONS[language]) assert.ok(pages[language].includes(phrase), `"${phrase}"`);
  });

  test(`${PAGES[language]}: each path lists sections in the lab's order, sums their minutes and fits its budget`, () => {
    const paths = lines(language).filter((line) => line.startsWith('- **') && /`[\w-]+` \(\d+\)/.test(line));
    const budgets = paths.map((line) => Number(/^- \*\*(\d+)/.exec(line)?.[1] ?? NaN)).filter(Number.isFinite);
    assert.deepEqual(budgets.sort((a, b) => a - b), [45, 90], 'a 90-minute order and a 45-minute path');
    for (const line of paths) {
      const items = [...line.matchAll(/`([\w-]+)` \((\d+)\)/g)].map(([, id, minutes]) => ({ id, minutes: Number(minutes) }));
      for (const { id, minutes } of items) {
        assert.ok(rowById[id], `${id} is a section`);
        assert.equal(minutes, rowById[id].plan, `${id}'s minutes in "${line}"`);
      }
      const places = items.map(({ id }) => SECTION_IDS.indexOf(id));
      assert.deepEqual(places, [...places].sort((a, b) => a - b), `in the lab's order: ${line}`);
      const total = minutesOf(items.map(({ id }) => id));
      assert.equal(Number(/ = (\d+)/.exec(line)?.[1]), total, `the sum in "${line}"`);
      const budget = Number(/^- \*\*(\d+)/.exec(line)?.[1] ?? NaN);
      if (Number.isFinite(budget)) {
        assert.ok(total <= budget, `${total} minutes fit ${budget}`);
        const left = language === 'en' ? /(\d+) minutes? left/ : /剩余 (\d+) 分钟/;
        assert.equal(Number(left.exec(line)?.[1]), budget - total, `the minutes left in "${line}"`);
      }
    }
  });

  test(`${PAGES[language]}: it names exactly the sections that train a model`, () => {
    const line = lines(language).find((text) => text.startsWith(TRAINED[language]));
    assert.ok(line, `a line starting ${TRAINED[language]}`);
    const named = [...line.matchAll(/`([\w-]+)`/g)].map(([, id]) => id);
    assert.deepEqual(named, LESSON_ROWS.filter(({ trains }) => trains).map(({ id }) => id));
    assert.ok(named.length > 0);
  });

  test(`${PAGES[language]}: every prediction, with its question and its section's teacher's note`, () => {
    const listed = lines(language).map((text) => /^- `([\w-]+\.[\w-]+)`: (.*)$/.exec(text)).filter(Boolean);
    assert.deepEqual(listed.map(([, id]) => id), PREDICTIONS.map(({ id }) => id), 'each prediction once, in the lab\'s order, none unknown');
    for (const [[, id, question], prediction] of listed.map((match, index) => [match, PREDICTIONS[index]])) {
      assert.equal(question, catalogueText(prediction.questionKey, language), `${id}: its question (${REGENERATE})`);
    }
    for (const key of new Set(PREDICTIONS.map(({ teacherNoteKey }) => teacherNoteKey))) {
      assert.ok(pages[language].includes(catalogueText(key, language)), `${key} (${REGENERATE})`);
    }
  });
}
