// The recipes of docs/architecture.md against the repository: each of the
// five (a section, an exercise, a core function, a kind, a UI language)
// names every place the tests enforce for its kind of change, and every
// path a recipe names exists. The places are derived from the repository
// where it can tell them (the files that name every section, the exercise
// test files, the files that name every function of the JS API, the files
// that name the optimisers, the files and tests that hold a table per
// language) and listed here where it cannot. Also: every prediction the
// sections declare has its row in the page's table of predictions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SECTIONS, SECTION_IDS } from '../../web/src/sections/registry.js';

const PAGE = 'docs/architecture.md';
const page = await readFile(PAGE, 'utf8');

const RECIPES = {
  section: '### How to add a section',
  exercise: '### How to add an exercise',
  coreFunction: '### How to add a core function',
  kind: '### How to add a kind (an optimiser or a variant option)',
  language: '### How to add a UI language',
};

// A recipe's text: from its heading to the next heading.
function recipe(heading) {
  const lines = page.split('\n');
  const start = lines.indexOf(heading);
  assert.ok(start >= 0, `${PAGE} has no heading "${heading}"`);
  const end = lines.findIndex((line, index) => index > start && /^#{1,3} /.test(line));
  return lines.slice(start + 1, end < 0 ? lines.length : end).join('\n');
}

// What a recipe names: its code spans, and the pages it links to (as paths
// from the repository's root).
function named(text) {
  const spans = [...text.matchAll(/`([^`]+)`/g)].map(([, span]) => span.replace(/\s+/g, ' ').trim());
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .filter(([, target]) => !/^[a-z]+:/.test(target))
    .map(([, target]) => path.posix.normalize(path.posix.join(path.posix.dirname(PAGE), target)));
  return { spans: new Set(spans), paths: [...spans.filter(isPath), ...links] };
}

// A path from the root: no spaces, at least one slash or a file's extension
// after a folder, never absolute (`/usr/bin/python3` is the machine's).
const isPath = (span) => /^[\w.<>*-]+(\/[\w.<>*-]*)+$/.test(span) && !span.startsWith('/');

// Every file of the repository's sources, as paths from the root.
// web/src/generated/: the build's, derived from the sections' folders.
const SKIPPED = new Set(['.git', 'node_modules', 'dist', 'build', 'test-results', 'generated']);
async function walk(folder) {
  const entries = await readdir(folder, { withFileTypes: true });
  const files = await Promise.all(entries.filter(({ name }) => !SKIPPED.has(name)).map((entry) => {
    const full = path.posix.join(folder, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  }));
  return files.flat();
}
const FILES = (await Promise.all(['core', 'wasm', 'web', 'tests', 'docs'].map(walk))).flat().concat(['README.md']);
// (Not this file: it names what it looks for.)
const THIS = 'tests/web/docs-recipes.test.mjs';
const TEXTS = new Map(await Promise.all(FILES.filter((file) => file !== THIS && /\.(m?js|ts|md|html|cpp|hpp|py|txt)$/.test(file))
  .map(async (file) => [file, await readFile(file, 'utf8')])));
const filesWhere = (predicate, under = '') => [...TEXTS].filter(([file, text]) => file.startsWith(under) && predicate(text, file))
  .map(([file]) => file);

// A path with placeholders (`<id>`, `<lang>`, `*`) exists if some file or
// folder matches it.
function exists(span) {
  if (!/[<*]/.test(span)) return existsSync(span);
  const pattern = new RegExp(`^${span.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '[^/]+').replace(/\*/g, '[^/]*')}`);
  return FILES.some((file) => pattern.test(file));
}

// The repository's own lists.
const word = (name) => new RegExp(`(?<![\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
const namesAll = (names) => (text) => names.every((name) => word(name).test(text));

// A section's own files are named by its placeholder in a recipe.
const generalised = (file) => file
  .replace(/^web\/src\/sections\/([\w-]+)\/\1\.js$/, 'web/src/sections/<id>/<id>.js')
  .replace(/^web\/src\/sections\/[\w-]+\/exercises\.js$/, 'web/src/sections/<id>/exercises.js');

const declarationTypes = await readFile('wasm/attention-core.d.ts', 'utf8');
const API_FUNCTIONS = [...new Set([...declarationTypes.matchAll(/^ {2}([a-z]\w+)\(/gm)].map(([, name]) => name))];

const REQUIRED = {
  // Every file that names every section holds a table a new section joins.
  section: {
    derived: filesWhere(namesAll(SECTION_IDS)),
    except: {
      [PAGE]: 'this page: its table of predictions and its examples',
      'tests/benchmarks/README.md': 'the figures of a benchmark run, case by case',
    },
    listed: [
      'web/src/sections/<id>/<id>.js', 'web/src/sections/<id>/', 'web/src/state.js',
      'web/src/i18n/en/<id>.js', 'web/src/i18n/zh/<id>.js', 'web/src/i18n/en/shared.js', 'web/src/i18n/zh/shared.js',
      'web/build-steps/section-list.mjs', 'web/build-steps/page-html.mjs', 'web/src/book-links.js', 'README.md',
      'tests/web/section-declarations.test.mjs', 'tests/web/section-loaders.test.mjs', 'tests/web/scratch-section.test.mjs',
      'tests/web/declaration-types.test.mjs', 'tests/web/catalogues.test.mjs', 'tests/web/catalogue-parts.test.mjs',
      'tests/web/book-links.test.mjs', 'tests/web/book-claims.test.mjs', 'tests/web/docs-facts.test.mjs',
      'tests/web/lesson-plan.test.mjs', 'tests/browser/course-pages.test.mjs', 'tests/browser/redraw-performance.test.mjs',
      'SectionDeclaration', 'order', 'book', 'bookSubsection(page, anchor, number, title)',
    ],
  },
  // Every exercise test file, and what every exercise of the lab is held to.
  exercise: {
    derived: FILES.filter((file) => /^tests\/(web|browser)\/[\w-]*exercises\.test\.mjs$/.test(file)),
    except: {},
    listed: [
      'web/src/sections/<id>/exercises.js', 'web/src/exercises/exercise-declaration.js',
      'web/src/i18n/en/<id>.js', 'web/src/i18n/zh/<id>.js', 'web/src/i18n/en/exercises.js', 'web/src/i18n/zh/exercises.js',
      'tests/web/section-declarations.test.mjs', 'tests/web/catalogues.test.mjs', 'tests/web/exercise-texts.test.mjs',
      'tests/web/exercise-progress.test.mjs', 'tests/web/scorm-interactions.test.mjs', 'tests/web/scorm-suspend-data.test.mjs',
      'tests/web/docs-facts.test.mjs', 'tests/web/lesson-plan.test.mjs', 'tests/web/book-claims.test.mjs',
      'tests/browser/prediction-giveaways.test.mjs', 'tests/browser/prediction-moments.test.mjs',
      'tests/browser/course-pages.test.mjs', 'docs/exercises.md', 'docs/learning-and-teaching.md',
      'docs/lesson-plan.md', 'docs/lesson-plan.zh.md', 'docs/book-claims.md',
      'ExerciseDeclaration', 'hides', 'withholds', 'startedBy', 'tells',
    ],
  },
  // Every file that names every function of the JS API lists a new one.
  coreFunction: {
    derived: filesWhere(namesAll(API_FUNCTIONS)),
    except: {},
    listed: [
      'core/CMakeLists.txt', 'core/contract/limits.hpp', 'core/contract/errors.hpp',
      'tests/references/make_references.py', 'tests/references/references.json',
      'tests/core/test_<name>.cpp', 'tests/core/CMakeLists.txt', 'wasm/CMakeLists.txt', 'wasm/transfer.hpp',
      'wasm/pooling_bindings.cpp', 'wasm/scoring_bindings.cpp', 'wasm/model_bindings.cpp', 'wasm/seq2seq_bindings.cpp',
      'tests/node/contract.test.mjs', 'tests/node/core-parts.test.mjs', 'tests/node/api-fuzz.test.mjs',
      'tests/engines/core-battery.mjs', 'tests/package/consumer.ts', 'API_FUNCTIONS', 'LimitName',
    ],
  },
  // Every file that names the optimisers (the kind, the names, the list).
  kind: {
    derived: filesWhere((text) => /OptimizerKind|['"]sgd['"]|OPTIMIZERS|optimizer\.sgd|torch\.optim\.SGD/.test(text))
      .filter((file) => !file.startsWith('docs/') && file !== 'README.md'),
    except: {
      'tests/references/make_references.py': 'the kernel width\'s SGD, not the optimiser option',
      'web/src/sections/shared/kernel-regression-pytorch.js': 'the kernel width\'s SGD, not the optimiser option',
      'tests/core/test_seq2seq_model.cpp': 'builds the translators with the existing kinds only',
      'tests/benchmarks/model_step_benchmark.cpp': 'a benchmark timing Adam',
      'tests/benchmarks/seq2seq_step_benchmark.cpp': 'a benchmark timing Adam',
      'tests/benchmarks/README.md': 'the benchmarks\' figures',
    },
    listed: [
      'tests/references/model_references.json', 'tests/node/hostile-input.test.mjs', 'docs/js-api.md',
      'OptimizerKind', 'OPTIMIZERS', 'OPTIMIZER_KEYS', 'Optimizer',
    ],
  },
  // Every file of the page and every test that holds a table or a list per
  // language.
  language: {
    derived: [
      ...filesWhere((text) => /['"]zh['"]|\bzh:|zh-CN/.test(text), 'web/')
        .filter((file) => !file.startsWith('web/src/i18n/zh/')),
      ...filesWhere((text) => /(^|[{,]\s*)zh:|\[\s*'en',\s*'zh'\s*\]/m.test(text), 'tests/web/'),
      ...filesWhere((text) => /(^|[{,]\s*)zh:|\[\s*'en',\s*'zh'\s*\]/m.test(text), 'tests/browser/'),
    ].map(generalised),
    except: {
      'web/src/sections/<id>/<id>.js': 'a declaration\'s subsections in the two books (and the translation task\'s languages), not the page\'s languages',
      'web/src/sections/translation/setup.js': 'the translation task\'s languages, not the page\'s',
    },
    listed: [
      'web/src/state.js', 'web/src/i18n/<lang>/', 'web/src/i18n/en/', 'web/src/i18n/catalogue-files.js',
      'web/src/i18n/index.js', 'web/src/i18n/detect-language.js', 'web/src/i18n/glossary.js', 'web/src/main.js',
      'docs/book-claims.md', 'docs/lesson-plan.md', 'docs/lesson-plan.zh.md',
      'tests/browser/prediction-giveaways.test.mjs', 'tests/browser/languages.test.mjs',
      'LANGUAGES', 'CATALOGUE_PARTS', 'BOOKS',
    ],
  },
};

for (const [name, heading] of Object.entries(RECIPES)) {
  const { spans, paths } = named(recipe(heading));

  test(`the recipe "${heading.slice(4)}" names every place the tests enforce`, () => {
    const { derived, except, listed } = REQUIRED[name];
    assert.ok(derived.length > 0, `${name}: nothing derived from the repository`);
    for (const file of Object.keys(except)) assert.ok(exists(file), `${name}: the exception ${file} is no file`);
    const required = [...new Set([...derived.filter((file) => !(file in except)), ...listed])];
    const missing = required.filter((place) => !spans.has(place));
    assert.deepEqual(missing, [], `${PAGE}, "${heading.slice(4)}" does not name: ${missing.join(', ')}`);
  });

  test(`every path the recipe "${heading.slice(4)}" names exists`, () => {
    const absent = [...new Set(paths)].filter((span) => !exists(span));
    assert.deepEqual(absent, [], `${PAGE}, "${heading.slice(4)}" names paths that do not exist: ${absent.join(', ')}`);
  });
}

test('every prediction the sections declare has its row in the table of predictions', () => {
  const rows = new Set([...page.matchAll(/^\| `([\w-]+\.[\w-]+)` \|/gm)].map(([, id]) => id));
  const predictions = SECTIONS.flatMap(({ id, exercises = [] }) => exercises
    .filter(({ kind }) => kind === 'predict').map((exercise) => `${id}.${exercise.id}`));
  assert.ok(predictions.length > 0);
  assert.deepEqual(predictions.filter((id) => !rows.has(id)), [], 'predictions without a row');
  assert.deepEqual([...rows].filter((id) => !predictions.includes(id)), [], 'rows of no prediction');
});
