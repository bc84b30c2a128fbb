// What the front door and the teachers' guide say about the lab, against
// the lab: the number of sections the README names wherever it counts them;
// the exercises the guide counts, by kind, against the sections'
// declarations, and what a right answer is worth in a SCORM package; the
// files the iframe recipes list against the files the page asks for; and
// the sizes the guide gives the notebook's script and the SCORM packages,
// and those the architecture and the JS API give the wasm parts, against what the build made (dist/; needs the build). The npm package's
// sizes are held by tests/package/package.test.mjs, which packs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { KINDS } from '../../web/src/exercises/exercise-state.js';
import { exerciseNames } from '../../web/src/scorm/package-exercises.js';
import { percent } from '../../web/src/scorm/lms-calls.js';
import { PAGE_FILES, PAGE_FOLDERS } from '../../web/build-steps/npm-package.mjs';
import { offlineBuild, OFFLINE_WORKER } from '../../web/build-steps/offline-worker.mjs';
import { CORE_PAGE_FILES } from '../../web/src/core-files.js';

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
// Within this share of an artefact's real size, "about N MB" is true.
const SIZE_SHARE = 0.1;
const MB = 1e6;

const flat = (text) => text.replace(/\s+/g, ' ');
const guide = async () => flat(await readFile('docs/learning-and-teaching.md', 'utf8'));
const said = (text, pattern, what) => {
  const match = pattern.exec(text);
  assert.ok(match, `the docs give ${what} (${pattern})`);
  return match;
};
const aboutSize = (stated, bytes, what) =>
  assert.ok(Math.abs(stated * MB - bytes) <= SIZE_SHARE * bytes,
    `${what}: ${(bytes / MB).toFixed(3)} MB (${bytes} bytes), the docs say about ${stated} MB`);
// The names a passage writes in backticks.
const quotedNames = (passage) => [...passage.matchAll(/`([^`]+)`/g)].map(([, name]) => name);
const between = (text, start, end) => {
  const from = text.indexOf(start);
  assert.ok(from >= 0, `the docs have "${start}"`);
  const to = text.indexOf(end, from + start.length);
  assert.ok(to > from, `"${start}" ... "${end}"`);
  return text.slice(from + start.length, to);
};

test('the README counts the sections the registry has, wherever it counts them', async () => {
  const readme = flat(await readFile('README.md', 'utf8'));
  const counts = [...readme.matchAll(/\b(\w+) sections\b/g)]
    .map(([, word]) => word.toLowerCase())
    .filter((word) => NUMBER_WORDS.includes(word) || /^\d+$/.test(word));
  assert.ok(counts.length >= 2, `counts found: ${counts}`);
  for (const word of counts) {
    const number = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word);
    assert.equal(number, SECTIONS.length, `"${word} sections"`);
  }
});

test('the exercises the guide counts, by kind, are those the sections declare', async () => {
  const exercises = flat(await readFile('docs/exercises.md', 'utf8'));
  const [, total, predict, compute, achieve, concept, leastExercises, leastKinds] = said(exercises,
    /The lab asks (\d+) exercises: (\d+) predictions, (\d+) computations, (\d+) tasks to make happen and (\d+) concept questions, at least (\w+) in each section and at least (\w+) kinds in each/,
    'the exercises by kind');
  const declared = SECTIONS.flatMap(({ exercises: list = [] }) => list);
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, declared.filter((exercise) => exercise.kind === kind).length]));
  assert.equal(Number(total), declared.length, 'exercises in all');
  assert.deepEqual({ predict: Number(predict), compute: Number(compute), achieve: Number(achieve), concept: Number(concept) }, byKind);
  const fewest = Math.min(...SECTIONS.map(({ exercises: list = [] }) => list.length));
  const fewestKinds = Math.min(...SECTIONS.map(({ exercises: list = [] }) => new Set(list.map(({ kind }) => kind)).size));
  assert.equal(NUMBER_WORDS.indexOf(leastExercises), fewest, 'the fewest exercises a section has');
  assert.equal(NUMBER_WORDS.indexOf(leastKinds), fewestKinds, 'the fewest kinds a section has');
});

test('what a right answer is worth in a SCORM package, as the guide says, is what the package reports', async () => {
  const text = await guide();
  const [, total, each, two, sections, chosen, worth] = said(text,
    /The whole lab's packages hold (\d+) exercises, so each right answer adds 100\/\d+ = ([\d.]+) to the score, and two right answers report ([\d.]+), not 2; a package of `([\w,-]+)` holds (\d+), each worth ([\d.]+)\./,
    'what a right answer is worth');
  const all = exerciseNames(SECTIONS).length;
  assert.equal(Number(total), all);
  assert.ok(text.includes(`adds 100/${all} =`));
  assert.equal(Number(each), percent(1 / all));
  // What the package sends as cmi.core.score.raw (cmi.score.raw) for two right answers.
  assert.equal(Number(two), percent(2 / all));
  const picked = SECTIONS.filter(({ id }) => sections.split(',').includes(id));
  assert.equal(picked.length, sections.split(',').length, `sections ${sections}`);
  assert.equal(Number(chosen), exerciseNames(picked).length);
  assert.equal(Number(worth), percent(1 / Number(chosen)));
});

test('the guide gives the SCORM packages\' size the build makes them, and the files each holds', async () => {
  const text = await guide();
  const [, size] = said(text, /the whole lab's zip is about ([\d.]+) MB/, 'the zips\' size');
  const holds = between(text, 'The zip holds the page,', 'which names one SCO');
  const listed = quotedNames(holds).sort();
  for (const name of ['attention-lab-scorm12.zip', 'attention-lab-scorm2004.zip']) {
    const bytes = await readFile(`dist/scorm/${name}`);
    aboutSize(Number(size), bytes.length, name);
    assert.deepEqual(Object.keys(unzipSync(new Uint8Array(bytes))).sort(), listed, `${name}: the files the guide lists`);
  }
});

test('the guide gives the element\'s two scripts the sizes they have, plain and gzipped', async () => {
  const text = await guide();
  const units = { KB: 1e3, MB };
  for (const script of ['attention-lab-element-loader.js', 'attention-lab-element.js']) {
    const [, size, unit, gzipped, gzippedUnit] = said(text,
      new RegExp(`\\| \`${script.replace(/\./g, '\\.')}\` \\| ([\\d.]+) (KB|MB) \\(([\\d.]+) (KB|MB) gzipped\\)`), `the size of ${script}`);
    const bytes = await readFile(`dist/${script}`);
    aboutSize(Number(size) * units[unit] / MB, bytes.length, script);
    aboutSize(Number(gzipped) * units[gzippedUnit] / MB, gzipSync(bytes, { level: 9 }).length, `${script}, gzipped`);
  }
});

test('the guide gives the notebook\'s script the size it has', async () => {
  const text = await guide();
  const [, size] = said(text, /in the first `show\(\)`'s output: about ([\d.]+) MB/, 'the notebook script\'s size');
  const { size: bytes } = await stat('dist/python/attention_lab/attention-lab-element.js');
  aboutSize(Number(size), bytes, 'the element\'s script, as show() puts it into the notebook');
});

// Every file a copy of the page asks for: over http, what its service
// worker keeps (index.html, app.js, the CSS, page/'s modules, the wasm, the
// app manifest and its icons) and the worker itself; from disk, the page as
// one script and the core's parts as scripts. A folder stands for its files.
async function filesThePageAsksFor() {
  const { files } = await offlineBuild('dist');
  const names = files.map(({ file }) => (file.includes('/') ? `${file.split('/')[0]}/` : file));
  return [...new Set([...names, OFFLINE_WORKER, 'app-disk.js', ...CORE_PAGE_FILES])].sort();
}

test('the iframe recipes list every file the page asks for, and the npm package exports them', async () => {
  const asked = await filesThePageAsksFor();
  const exported = [...PAGE_FILES, ...PAGE_FOLDERS.map((folder) => `${folder}/`)].sort();
  assert.deepEqual(exported, asked, 'the npm package\'s page files');
  const docs = await readFile('docs/learning-and-teaching.md', 'utf8');
  const readme = await readFile('web/package-readme.md', 'utf8');
  const recipes = {
    'the iframe mode': between(docs, 'Copy the page\'s files together:', 'a missing file is named on the page'),
    'the recipe for platforms that strip scripts': between(docs, 'put the page\'s files (', ' on the\n  site'),
    'the npm package\'s README': between(readme, '## The whole lab in an iframe', 'node_modules/attention-lab/'),
  };
  for (const [recipe, passage] of Object.entries(recipes)) {
    assert.deepEqual([...new Set(quotedNames(passage))].sort(), asked, recipe);
  }
  // Each is in dist/, as the build wrote it.
  for (const name of asked) {
    if (name.endsWith('/')) assert.ok((await readdir(`dist/${name}`)).length > 0, `dist/${name}`);
    else assert.ok((await stat(`dist/${name}`)).size > 0, `dist/${name}`);
  }
});

// The two books number their sections differently (zh.d2l.ai 10.x, d2l.ai
// 11.x): a section number in the front door or the guide says whose it is.
test('a d2l section number in the README or the guide names its edition', async () => {
  for (const file of ['README.md', 'docs/learning-and-teaching.md']) {
    const text = flat(await readFile(file, 'utf8'));
    for (const match of text.matchAll(/\bd2l (1[01]\.\d)/g)) {
      assert.match(text.slice(match.index, match.index + 60), /\b(zh\.)?d2l\.ai\b/, `${file}: "${text.slice(match.index, match.index + 60)}"`);
    }
    assert.doesNotMatch(text, /\b(2nd|1st|second|first) edition \d/i, `${file}: an edition by its number, not by its site`);
  }
});

// The front door names what no other tool has: the translator trained in
// the page with its alignment maps, and a trained row taken apart.
test('the README\'s first paragraph names the translator and the row taken apart', async () => {
  const readme = await readFile('README.md', 'utf8');
  const first = flat(readme.slice(readme.indexOf('Attention Lab is'), readme.indexOf('\n\n', readme.indexOf('Attention Lab is'))));
  assert.match(first, /translator \(the books' Bahdanau encoder-decoder and Transformer, d2l 10\.4 and 10\.7 of zh\.d2l\.ai, 11\.4 and 11\.7 of d2l\.ai\) trained in the page/);
  assert.match(first, /alignment maps/);
  assert.match(first, /One row of a map either model trained can be taken apart/);
  for (const section of ['translation', 'attention-training']) assert.ok(SECTIONS.some(({ id }) => id === section), section);
});

test('the wasm parts\' gzipped sizes the architecture and the JS API give are the build\'s', async () => {
  const gzipped = async (part) => gzipSync(await readFile(`dist/attention-core-${part}.wasm`), { level: 9 }).length / 1e3;
  const cues = await gzipped('cues');
  const basics = await gzipped('basics');
  const models = await gzipped('models');
  const near = (stated, measured, what) => assert.ok(Math.abs(Number(stated) - measured) <= 0.02 * measured,
    `${what}: ${measured.toFixed(1)} KB gzipped, the docs say ${stated}`);
  const architecture = flat(await readFile('docs/architecture.md', 'utf8'));
  near(said(architecture, /the basics' wasm ([\d.]+)/, 'the basics\' size')[1], basics, 'the basics');
  near(said(architecture, /the models' wasm ([\d.]+)/, 'the models\' size')[1], models, 'the models');
  near(said(architecture, /the cues' wasm ([\d.]+)/, 'the cues\' size')[1], cues, 'the cues\' part');
  const [, cuesAgainst, basicsAgainst] = said(architecture, /(\d+) KB gzipped against the basics' (\d+)/, 'the cues\' part against the basics');
  near(cuesAgainst, cues, 'the cues\' part against the basics: the cues\'');
  near(basicsAgainst, basics, 'the cues\' part against the basics: the basics');
  const [, twoBasics, twoModels] = said(architecture, /parts, (\d+) \+ (\d+) KB gzipped/, 'the two parts');
  near(twoBasics, basics, 'the two parts: basics');
  near(twoModels, models, 'the two parts: models');
  const [, apiBasics, apiModels] = said(flat(await readFile('docs/js-api.md', 'utf8')), /\(gzipped, (\d+) KB and (\d+) KB/, 'the JS API\'s sizes');
  near(apiBasics, basics, 'the JS API: basics');
  near(apiModels, models, 'the JS API: models');
  near(said(flat(await readFile('docs/js-api.md', 'utf8')), /a module of its own \((\d+) KB gzipped\)/, 'the JS API: the cues\' size')[1], cues,
    'the JS API: the cues\' part');
});

// The element's script is large: a recipe that loads it without defer
// (or as a module) holds back the course page's own text until it arrives.
test('every recipe that loads the element\'s script defers it', async () => {
  const files = ['README.md', 'web/package-readme.md', 'web/course-example.html',
    ...(await readdir('docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  let found = 0;
  for (const file of files) {
    for (const [tag] of (await readFile(file, 'utf8')).matchAll(/<script\b[^>]*attention-lab-element(-loader)?\.js[^>]*>/g)) {
      found += 1;
      assert.match(tag, /\sdefer\b|type="module"/, `${file}: ${tag}`);
    }
  }
  assert.ok(found >= 3, `the recipes load the element's script (${found} found)`);
});
