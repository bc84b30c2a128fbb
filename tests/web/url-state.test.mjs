// The state in the URL hash (web/src/url-state.js), read and written
// through the parameter table: hostile text is clamped or ignored, only
// own entries of the table are read, and what is written reads back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parameters, createStore } from '../../web/src/state.js';
import { formatHash, parseHash, parseHideList, patchFromHash, readParameter, readHeading, LIMITS } from '../../web/src/url-state.js';
import { HOSTILE_HASHES, everyParameterChanged, startingState } from './url-hashes.mjs';

test('the hash parser reads the table and nothing else', () => {
  assert.equal(readParameter('noise', '2000'), parameters.noise.max);
  assert.equal(readParameter('n', '1e308'), parameters.n.max);
  assert.equal(readParameter('n', '-1e308'), parameters.n.min);
  for (const bad of ['NaN', 'Infinity', '-Infinity', '0x10', '1_000', '', ' ', '5px', '٥٠', '1e99999', '9'.repeat(65)]) {
    assert.equal(readParameter('n', bad), undefined, `n=${bad} is ignored`);
  }
  assert.equal(readParameter('kernel', 'Gaussian'), undefined, 'choices match exactly');
  assert.equal(readParameter('leaveOneOut', 'yes'), undefined);
  assert.equal(readParameter('constructor', '1'), undefined);
  const parsed = parseHash('#__proto__=1&constructor=x&toString=y&n=10&n=20&kernel=boxcar&hide=seed,<b>,noise&embed=nowhere', ['pooling']);
  assert.deepEqual(parsed.params, { n: 20, kernel: 'boxcar' });
  assert.deepEqual(parsed.hide, ['seed', 'noise']);
  assert.equal(parsed.embed, null);
  assert.equal(Object.getPrototypeOf(parsed.params), Object.prototype, 'no prototype pollution');
  assert.equal(parseHash('#pooling', ['pooling']).section, 'pooling', 'a plain anchor names a section');
});

test('hostile hashes give a state of the table\'s own values, as expected for each', () => {
  for (const [hash, check] of HOSTILE_HASHES) {
    const label = hash.slice(0, 80);
    const state = startingState(`#${hash}`);
    for (const [name, spec] of Object.entries(parameters)) {
      const value = state[name];
      if (spec.type === 'choice') assert.ok(spec.options.includes(value), `${label}: ${name} = ${value}`);
      else if (spec.type === 'boolean') assert.equal(typeof value, 'boolean', `${label}: ${name}`);
      else assert.ok(Number.isFinite(value) && value >= spec.min && value <= spec.max, `${label}: ${name} = ${value} in bounds`);
    }
    assert.deepEqual(Object.keys(state).sort(), Object.keys(parameters).sort(), `${label}: no other key`);
    if (check) assert.ok(check(state), `${label}: ${JSON.stringify(state).slice(0, 300)}`);
  }
});

test('view values named after members of Object.prototype name no section, mode or language', () => {
  const ids = ['data', 'pooling'];
  const none = { params: {}, section: null, embed: null, hide: [], heading: null, exercises: null, anchor: null };
  for (const member of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    const parsed = parseHash(`#embed=${member}&section=${member}&exercises=${member}&language=${member}&lang=${member}`, ids);
    assert.deepEqual({ ...parsed }, none, member);
    assert.equal(parseHash(`#${member}`, ids).section, null, `#${member}: no section`);
    assert.equal(readParameter('language', member), undefined);
    assert.equal(readParameter('kernel', member), undefined);
  }
  assert.deepEqual(parseHash('#hide=__proto__,constructor,toString', ids).hide, ['constructor', 'toString'], 'hide names, never looked up');
});

test('view keys: only known sections, a checked hide list, a plain anchor', () => {
  const ids = ['data', 'pooling', 'training'];
  assert.deepEqual(parseHash('#embed=pooling&hide=seed,w&section=training', ids),
    { params: {}, section: 'training', embed: 'pooling', hide: ['seed', 'w'], heading: null, exercises: null, anchor: null });
  assert.equal(parseHash('#section=<svg/onload=alert(1)>', ids).section, null);
  assert.equal(parseHash('#section=training&section=data', ids).section, 'data', 'the last one wins');
  assert.deepEqual(parseHash('#main', ids), { params: {}, section: null, embed: null, hide: [], heading: null, exercises: null, anchor: 'main' });
  assert.equal(parseHash('#<img>', ids).anchor, null, 'an anchor must look like an id');
  assert.equal(parseHash('#%E0%A4%A', ids).anchor, null, 'a broken escape is no anchor');
  assert.deepEqual(parseHash('', ids), parseHash('#', ids));
});

test('exercises=on|off|answers: a mode, anything else none; written back unless it is the default', () => {
  for (const mode of ['on', 'off', 'answers']) assert.equal(parseHash(`#exercises=${mode}&n=50`).exercises, mode);
  for (const bad of ['ON', 'answer', 'true', '', '<b>']) assert.equal(parseHash(`#exercises=${encodeURIComponent(bad)}`).exercises, null, bad);
  assert.match(formatHash({}, { exercises: 'answers' }), /(^|&)exercises=answers(&|$)/);
  assert.doesNotMatch(formatHash({}, { exercises: 'on' }), /exercises/);
});

test('a course\'s heading: plain text, spaces collapsed, control characters dropped, at most 120 characters', () => {
  const ids = ['pooling'];
  assert.equal(parseHash('#embed=pooling&heading=Part%202%3A%20%3Cb%3Eweights%3C%2Fb%3E', ids).heading, 'Part 2: <b>weights</b>');
  assert.equal(readHeading(' a\u0000b\n\tc  d\u009f '), 'a b c d');
  assert.equal(readHeading(' \n '), null, 'blank: the lab\'s own title');
  assert.equal(readHeading(undefined), null);
  assert.equal([...readHeading('注'.repeat(500))].length, LIMITS.heading, 'cut by characters, not UTF-16 units');
  assert.equal(readHeading('😀'.repeat(200)), '😀'.repeat(LIMITS.heading), 'no half surrogate pair');
  assert.equal(parseHash('#embed=pooling&heading=%', ids).heading, null, 'a broken escape is no heading');
  // Written back only in embed mode, where it is read.
  assert.match(formatHash({}, { embed: 'pooling', heading: 'Part 2: weights' }), /heading=Part%202%3A%20weights/);
  assert.doesNotMatch(formatHash({}, { heading: 'Part 2' }), /heading/);
});

test('the hide list keeps well-formed tokens once, and at most 64', () => {
  assert.deepEqual(parseHideList('seed, noise,seed,"],*{},1x,,new-sample'), ['seed', 'noise', 'new-sample']);
  assert.deepEqual(parseHideList(undefined), []);
  const many = Array.from({ length: 100 }, (_, i) => `p${i}`).join(',');
  assert.equal(parseHideList(many).length, LIMITS.hide);
});

test('long input is cut: the hash, the number of entries, a key, a value', () => {
  assert.equal(parseHash(`#${'z='.repeat(2100)}&n=9`).params.n, undefined, 'past 4096 characters nothing is read');
  assert.equal(parseHash(`#${'a=1&'.repeat(LIMITS.entries)}n=9`).params.n, undefined, 'past 256 entries nothing is read');
  assert.equal(parseHash(`#${'a=1&'.repeat(LIMITS.entries - 1)}n=9`).params.n, 9, 'the 256th entry is read');
  assert.equal(parseHash(`#${'k'.repeat(41)}=1`).params[`${'k'.repeat(41)}`], undefined);
  assert.equal(readParameter('seed', `${'0'.repeat(63)}7`), 7, 'a 64-character value is read');
  assert.equal(readParameter('seed', `${'0'.repeat(64)}7`), undefined, 'a 65-character one is not');
});

test('every entry of the table goes into the hash and comes back', () => {
  const wanted = everyParameterChanged();
  const hash = formatHash(wanted, {});
  assert.deepEqual(parseHash(`#${hash}`).params, wanted);
});

test('the hash holds what differs from the defaults, always the language, and the view keys', () => {
  const defaults = createStore().get();
  assert.equal(formatHash(defaults), 'language=en', 'an untouched state: only its language');
  assert.equal(formatHash({ ...defaults, n: 120, kernel: 'boxcar' }, { section: 'training' }),
    'n=120&kernel=boxcar&language=en&section=training');
  assert.equal(formatHash({ ...defaults, w: 2.5 }, { embed: 'pooling', hide: ['seed', 'new-sample'], section: 'pooling' }),
    'embed=pooling&hide=seed,new-sample&w=2.5&language=en', 'no section key in the iframe mode');
});

test('a hash typed by hand: missing parameters go back to their defaults, the language stays', () => {
  const patch = patchFromHash(parseHash('#n=80&noise=0.1'));
  assert.equal(patch.n, 80);
  assert.equal(patch.noise, 0.1);
  assert.equal(patch.kernel, parameters.kernel.default);
  assert.equal('language' in patch, false);
  assert.equal(patchFromHash(parseHash('#language=zh')).language, 'zh');
  // lang as the element's attribute is named, too; the last of the two wins.
  assert.equal(patchFromHash(parseHash('#lang=zh')).language, 'zh');
  assert.equal(patchFromHash(parseHash('#lang=zh&language=en')).language, 'en');
  assert.equal(patchFromHash(parseHash('#language=en&lang=zh&n=80')).language, 'zh');
  assert.equal(formatHash({ ...startingState('#lang=zh') }), 'language=zh', 'written back as language');
});
