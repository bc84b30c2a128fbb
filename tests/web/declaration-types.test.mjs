// The page's code against its JSDoc types, and the sections' declarations
// against their typedefs (SectionDeclaration in web/src/sections/registry.js,
// ExerciseDeclaration in web/src/exercises/exercise-declaration.js). tsc finds
// no error with either configuration: the editor's own (web/jsconfig.json:
// every file of web/src checked, without noImplicitAny and strictNullChecks,
// which the untyped code would fail thousands of times) and the strict one
// (web/jsconfig.strict.json: all of strict, for the files marked
// // @ts-check). With each, it finds every one of a list of planted mistakes
// in a declaration.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TSC = path.resolve('node_modules/typescript/bin/tsc');
const CONFIGS = ['web/jsconfig.json', 'web/jsconfig.strict.json'];
const SECTIONS_DIR = path.resolve('web/src/sections');

const typeCheck = (config) => run(process.execPath, [TSC, '-p', config]).then(() => ({ ok: true, output: '' }),
  (error) => ({ ok: false, output: `${error.stdout}${error.stderr}` }));

let scratch;
before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'declaration-types-'));
});
after(() => rm(scratch, { recursive: true, force: true }));

for (const config of CONFIGS) {
  test(`the page's code, the registry's sections and the exercise engine type-check (${config})`, async () => {
    const started = performance.now();
    const { ok, output } = await typeCheck(path.resolve(config));
    assert.ok(ok, output);
    assert.equal(output, '');
    console.log(`tsc -p ${config}: no error, ${(performance.now() - started).toFixed(0)} ms`);
  });
}

// Each mistake is a declaration built from a real one, as the registry sees
// it (an imported value, not a literal), given the section's type on its own line.
const MISTAKES = [
  ['a section without create()', 'without(dataSection, \'create\')'],
  ['a frame without its title', '{ ...dataSection, frame: { leadKeys: [\'data.lead\'] } }'],
  ['inputs as one name, not a list', '{ ...dataSection, inputs: \'n\' }'],
  ['a core part as a number', '{ ...dataSection, corePart: 2 }'],
  ['compute() that is not a function', '{ ...dataSection, compute: 3 }'],
  ['an error route of a number', '{ ...maskingSection, arguments: { seed: 3 } }'],
  ['an exercise without check()', '{ ...dataSection, exercises: [without(dataSection.exercises[0], \'check\')] }'],
  ['an exercise without its hint', '{ ...dataSection, exercises: [without(dataSection.exercises[0], \'hintKey\')] }'],
  ['a concept question without its question',
    '{ ...dataSection, exercises: [conceptExercise({ id: \'q\', hintKey: \'h\', right: \'a\', options: [{ id: \'a\', labelKey: \'l\', explanationKey: \'e\' }] })] }'],
  ['exercise options that are not a list', '{ ...poolingSection, exercises: [{ ...poolingSection.exercises[0], options: \'a\' }] }'],
  ['a check() that returns a bare verdict', '{ ...dataSection, exercises: [{ ...dataSection.exercises[0], check: () => \'right\' }] }'],
  ['figures to hide named by one string', '{ ...dataSection, exercises: [{ ...dataSection.exercises[0], hides: \'data-plot\' }] }'],
];

async function findsPlantedMistakes(config) {
  const imports = ['data', 'masking', 'pooling'].map((id) => path.join(SECTIONS_DIR, id, `${id}.js`));
  const lines = [
    '// @ts-check',
    `import { dataSection } from ${JSON.stringify(imports[0])};`,
    `import { maskingSection } from ${JSON.stringify(imports[1])};`,
    `import { poolingSection } from ${JSON.stringify(imports[2])};`,
    `import { conceptExercise } from ${JSON.stringify(path.resolve('web/src/exercises/judging.js'))};`,
    `/** @typedef {import(${JSON.stringify(path.join(SECTIONS_DIR, 'registry.js'))}).SectionDeclaration} SectionDeclaration */`,
    '/** @type {<T, K extends keyof T>(object: T, name: K) => Omit<T, K>} */',
    'const without = (object, name) => { const { [name]: left, ...rest } = object; return rest; };',
    // A real declaration passes: the check is not one that refuses everything.
    '/** @type {SectionDeclaration} */',
    'export const real = dataSection;',
  ];
  const lineOf = new Map();
  for (const [index, [, expression]] of MISTAKES.entries()) {
    lines.push(`const planted${index} = ${expression};`, '/** @type {SectionDeclaration} */');
    lines.push(`export const typed${index} = planted${index};`);
    lineOf.set(lines.length, MISTAKES[index][0]);
  }
  const compilerOptions = JSON.parse(await readFile(config, 'utf8')).compilerOptions;
  const folder = await mkdtemp(path.join(scratch, 'planted-'));
  await writeFile(path.join(folder, 'planted.js'), `${lines.join('\n')}\n`);
  await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['planted.js'] }));
  const { ok, output } = await typeCheck(path.join(folder, 'tsconfig.json'));
  assert.equal(ok, false, 'tsc finds the planted mistakes');
  const errorLines = [...output.matchAll(/planted\.js\((\d+),\d+\): error TS\d+/g)].map((match) => Number(match[1]));
  const found = [...lineOf].filter(([line]) => errorLines.includes(line)).map(([, mistake]) => mistake);
  assert.deepEqual(found, MISTAKES.map(([mistake]) => mistake), output);
  assert.deepEqual(errorLines.filter((line) => !lineOf.has(line)), [], `no error elsewhere:\n${output}`);
}

for (const config of CONFIGS) {
  test(`tsc finds each planted mistake in a declaration, on its own line, and no other error (${config})`,
    () => findsPlantedMistakes(config));
}
