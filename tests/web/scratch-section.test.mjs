// A new section, added the way docs/architecture.md's recipe "How to add a
// section" says (steps 1 to 3), in a copy of the repository: its folder,
// its catalogue part in each language with its nav label, nothing else.
// The copy must build, show the section in its nav and its page, load it,
// and pass the registry's tests, and the change must touch at most four
// folders (the section's, its two catalogues', its tests').
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SECTION_IDS } from '../../web/src/sections/section-loaders.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const WASM = path.join(ROOT, 'build/web/wasm');

// The registry's tests: the sections' lists, declarations, catalogues, types, imports and book links.
const REGISTRY_TESTS = [
  'section-loaders', 'section-declarations', 'catalogues', 'catalogue-parts', 'declaration-types', 'import-graph', 'book-links',
].map((name) => `tests/web/${name}.test.mjs`);

// The scratch section: a heading, a lead, a figure drawn from the core, and
// three exercises of two kinds (the registry's tests ask every section for them).
const DECLARATION = `import { bookSubsection } from '../../book-links.js';
import { conceptExercise, judgeNumber } from '../../exercises/judging.js';

const question = (id, right) => conceptExercise({
  id, questionKey: 'scratch.ex.question', hintKey: 'scratch.ex.hint', right,
  options: [
    { id: 'a', labelKey: 'scratch.ex.a', explanationKey: 'scratch.ex.aWhy' },
    { id: 'b', labelKey: 'scratch.ex.b', explanationKey: 'scratch.ex.bWhy' },
  ],
});
const mean = (core) => core.averagePool(Float64Array.of(1, 2, 6), 1)[0];

export const scratchSection = {
  id: 'scratch',
  order: 125,
  book: {
    en: bookSubsection('transformer', 'decoder', '11.7.5', 'Decoder'),
    zh: bookSubsection('transformer', null, '10.7', 'Transformer'),
  },
  frame: { titleKey: 'scratch.title', leadKeys: ['scratch.lead'], controls: false },
  create: ({ frame }) => ({ frame }),
  exercises: [
    question('first', 'a'),
    question('second', 'b'),
    {
      id: 'mean', kind: 'compute', tolerance: 0.01, questionKey: 'scratch.ex.mean', hintKey: 'scratch.ex.hint',
      check(core, inputs, answer) {
        const verdict = judgeNumber(answer, mean(core), 0.01);
        return { verdict, key: verdict === 'right' ? 'scratch.ex.right' : 'scratch.ex.wrong', params: { value: mean(core) } };
      },
      solution: (core) => ({ key: 'scratch.ex.solution', params: { value: mean(core) } }),
    },
  ],
  teacherNoteKey: 'scratch.ex.teacherNote',
};
`;

const catalogue = (texts) => `export default ${JSON.stringify(texts, null, 2)};\n`;
const PARTS = {
  en: { title: 'Scratch', lead: 'A section added by the recipe.', question: 'Which?', hint: 'Read the lead.', a: 'One', b: 'Two',
    aWhy: 'The lead says one.', bWhy: 'The lead says two.', mean: 'The mean of 1, 2 and 6?', right: 'Right: {value}.', wrong: 'It is {value}.',
    solution: 'The mean is {value}.', note: 'Ask first.', nav: 'Scratch' },
  zh: { title: '草稿', lead: '按步骤添加的章节。', question: '哪一个？', hint: '读导语。', a: '一', b: '二',
    aWhy: '导语说一。', bWhy: '导语说二。', mean: '1、2、6 的平均值？', right: '对：{value}。', wrong: '是 {value}。',
    solution: '平均值是 {value}。', note: '先问。', nav: '草稿' },
};
const sectionPart = (texts) => catalogue(Object.fromEntries([
  ['scratch.title', texts.title], ['scratch.lead', texts.lead], ['scratch.ex.teacherNote', texts.note],
  ...['question', 'hint', 'a', 'b', 'aWhy', 'bWhy', 'mean', 'right', 'wrong', 'solution'].map((name) => [`scratch.ex.${name}`, texts[name]]),
]));

let copy;
before(async () => {
  copy = await mkdtemp(path.join(os.tmpdir(), 'scratch-section-'));
  for (const item of ['web', 'wasm', 'python', 'tests/web', 'package.json', 'LICENSE']) {
    await cp(path.join(ROOT, item), path.join(copy, item), { recursive: true, filter: (source) => !source.includes(`${path.sep}generated`) });
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
});
after(() => rm(copy, { recursive: true, force: true }));

// Every file under `folder` with its text, relative to `root`.
async function texts(root, folder) {
  const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !entry.parentPath.includes(`${path.sep}generated`));
  return new Map(await Promise.all(files.map(async (entry) => {
    const full = path.join(entry.parentPath, entry.name);
    return [path.relative(root, full), await readFile(full, 'utf8')];
  })));
}

test('a section added by the recipe builds, shows in the nav, loads and passes the registry\'s tests, touching four folders at most', { timeout: 600000 }, async () => {
  // Steps 1 to 3: the declaration in its folder; a catalogue part in each language; the nav's label in each shared part.
  await mkdir(path.join(copy, 'web/src/sections/scratch'));
  await writeFile(path.join(copy, 'web/src/sections/scratch/scratch.js'), DECLARATION);
  for (const [language, part] of Object.entries(PARTS)) {
    await writeFile(path.join(copy, `web/src/i18n/${language}/scratch.js`), sectionPart(part));
    const shared = path.join(copy, `web/src/i18n/${language}/shared.js`);
    const text = await readFile(shared, 'utf8');
    const withNav = text.replace(/^(\s*'nav\.positional': .*\n)/m, `$1  'nav.scratch': '${part.nav}',\n`);
    assert.notEqual(withNav, text, `${language}/shared.js: the nav label placed`);
    await writeFile(shared, withNav);
  }

  // What changed, by comparing the copy with the repository.
  const changed = [];
  for (const folder of ['web', 'tests/web']) {
    const [before, now] = await Promise.all([texts(ROOT, folder), texts(copy, folder)]);
    for (const [file, text] of now) if (before.get(file) !== text) changed.push(file);
    for (const file of before.keys()) if (!now.has(file)) changed.push(file);
  }
  const folders = [...new Set(changed.map((file) => path.dirname(file).split(path.sep).join('/')))].sort();
  assert.deepEqual(folders, ['web/src/i18n/en', 'web/src/i18n/zh', 'web/src/sections/scratch']);
  assert.ok(folders.length <= 4);

  // It builds.
  await run(process.execPath, ['web/build.mjs', '--wasm-cues', path.join(WASM, 'attention-core-cues-wasm.mjs'),
    '--wasm-basics', path.join(WASM, 'attention-core-basics-wasm.mjs'),
    '--wasm-models', path.join(WASM, 'attention-core-models-wasm.mjs'), '--out', 'dist'], { cwd: copy, maxBuffer: 1 << 24 });

  // It shows in the page's nav and has its place, between positional encoding (120) and the trained Transformer (130).
  const html = await readFile(path.join(copy, 'dist/index.html'), 'utf8');
  const links = [...html.matchAll(/<a href="#([\w-]+)" data-i18n="(nav\.\w+)">([^<]+)<\/a>/g)].map(([, id, key, text]) => ({ id, key, text }));
  const at = links.findIndex(({ id }) => id === 'scratch');
  assert.deepEqual(links[at], { id: 'scratch', key: 'nav.scratch', text: 'Scratch' });
  assert.deepEqual([links[at - 1].id, links[at + 1].id], ['positional', 'attention-training']);
  assert.match(html, /<section id="positional" data-section="positional"><\/section>\s*<section id="scratch" data-section="scratch"><\/section>/);
  // Its code is a chunk of the page over http, preloaded when it is shown.
  const boot = await readFile(path.join(copy, 'dist/app.js'), 'utf8');
  assert.ok(/\bscratch:\{code:\["page\/scratch-\w+\.js"/.test(boot), 'app.js preloads page/scratch-<hash>.js with the section');

  // It loads, and passes the registry's tests.
  // (Without this runner's NODE_TEST_CONTEXT, the tests report as a run of their own, in text.)
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['--test', ...REGISTRY_TESTS], { cwd: copy, env, maxBuffer: 1 << 24 })
    .catch((error) => assert.fail(`the registry's tests fail with the scratch section:\n${error.stdout.split('\n').filter((line) => /not ok|error:|expected|actual/.test(line)).slice(0, 40).join('\n')}`));
  assert.match(stdout, /^# fail 0$/m);
  const { stdout: loaded } = await run(process.execPath, ['--input-type=module', '-e', `
    import { SECTION_LOADERS, sectionNumber } from './web/src/sections/section-loaders.js';
    const declaration = await SECTION_LOADERS.find(({ id }) => id === 'scratch').load();
    console.log(JSON.stringify({ id: declaration.id, number: sectionNumber('scratch'), count: SECTION_LOADERS.length }));`], { cwd: copy });
  assert.deepEqual(JSON.parse(loaded), { id: 'scratch', number: SECTION_IDS.indexOf('positional') + 2, count: SECTION_IDS.length + 1 });
});
