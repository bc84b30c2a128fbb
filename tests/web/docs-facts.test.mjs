// What the front door and the teachers' guide say about the lab, against
// the lab: the number of sections the README names wherever it counts them,
// and the size the guide gives the SCORM packages against the zips the
// build made (dist/scorm/; needs the build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { SECTIONS } from '../../web/src/sections/registry.js';

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
// Within this share of the zips' real size, "about N KB" is true.
const SIZE_SHARE = 0.1;

test('the README counts the sections the registry has, wherever it counts them', async () => {
  const readme = (await readFile('README.md', 'utf8')).replace(/\s+/g, ' ');
  const counts = [...readme.matchAll(/\b(\w+) sections\b/g)]
    .map(([, word]) => word.toLowerCase())
    .filter((word) => NUMBER_WORDS.includes(word) || /^\d+$/.test(word));
  assert.ok(counts.length >= 2, `counts found: ${counts}`);
  for (const word of counts) {
    const number = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word);
    assert.equal(number, SECTIONS.length, `"${word} sections"`);
  }
});

test('the teachers\' guide gives the SCORM packages\' size the build makes them', async () => {
  const guide = (await readFile('docs/learning-and-teaching.md', 'utf8')).replace(/\s+/g, ' ');
  const [, said] = /fetches nothing from anywhere; it is about (\d+) KB/.exec(guide) ?? [];
  assert.ok(said, 'the guide gives a size');
  for (const name of ['attention-lab-scorm12.zip', 'attention-lab-scorm2004.zip']) {
    const { size } = await stat(`dist/scorm/${name}`);
    const kilobytes = size / 1000;
    assert.ok(Math.abs(Number(said) - kilobytes) <= SIZE_SHARE * kilobytes, `${name}: ${kilobytes.toFixed(0)} KB, said about ${said}`);
  }
});
