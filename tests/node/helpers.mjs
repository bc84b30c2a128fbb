// Shared helpers of the Node tests: the API, the PyTorch-made references, hex
// floats, comparisons, and the bad-input check that also proves the module
// still works after the error.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadAttentionCore } from '../../dist/attention-core.mjs';

export const api = await loadAttentionCore();
export const references = JSON.parse(
  readFileSync(new URL('../references/references.json', import.meta.url), 'utf8'),
);

// Python's float.hex() format, both ways ("0x1.921fb54442d18p+1", "-0x0.0p+0", "nan").
export function fromHex(text) {
  if (text === 'nan') return NaN;
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  const match = /^(-?)0x([01])\.([0-9a-f]+)p([+-]\d+)$/.exec(text);
  if (!match) throw new Error(`not a hex float: ${text}`);
  const [, sign, lead, fraction, exponent] = match;
  // At most 53 significant bits: exact as a double, and the power of two scales it exactly.
  const mantissa = Number(BigInt(`0x${lead}${fraction}`));
  const value = mantissa * 2 ** (Number(exponent) - 4 * fraction.length);
  return sign ? -value : value;
}

export function toHex(value) {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? '-' : '';
  const biased = Number((bits >> 52n) & 0x7ffn);
  const mantissa = bits & ((1n << 52n) - 1n);
  if (biased === 0 && mantissa === 0n) return `${sign}0x0.0p+0`;
  const exponent = biased === 0 ? -1022 : biased - 1023;
  return `${sign}0x${biased === 0 ? 0 : 1}.${mantissa.toString(16).padStart(13, '0')}p${exponent >= 0 ? '+' : ''}${exponent}`;
}

// JSON numbers with null for NaN, or hex strings, as a Float64Array.
export function f64(list) {
  return Float64Array.from(list, (v) => (v === null ? NaN : typeof v === 'string' ? fromHex(v) : v));
}

export const flat = (lens) => (lens === null ? null : Int32Array.from(lens.flat()));

// Element-wise |a - e| <= tolerance * max(1, |e|); NaN matches only NaN.
export function assertClose(actual, expected, tolerance = 1e-9, label = '') {
  const want = expected instanceof Float64Array ? expected : f64(expected);
  assert.equal(actual.length, want.length, `${label}: length`);
  for (let i = 0; i < want.length; i += 1) {
    const a = actual[i];
    const e = want[i];
    if (Number.isNaN(e) || Number.isNaN(a)) {
      assert.ok(Number.isNaN(a) && Number.isNaN(e), `${label}[${i}]: got ${a}, expected ${e}`);
    } else {
      assert.ok(Math.abs(a - e) <= tolerance * Math.max(1, Math.abs(e)), `${label}[${i}]: got ${a}, expected ${e}`);
    }
  }
}

// Same bits, element by element (so 0 and -0 differ, and NaN equals NaN).
export function assertSameBits(actual, expected, label = '') {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i += 1) {
    if (!Object.is(actual[i], expected[i])) {
      assert.fail(`${label}[${i}]: got ${toHex(actual[i])}, expected ${toHex(expected[i])}`);
    }
  }
}

// A call the module must still answer correctly: a reference case of each kind
// of code path (pooling, and a batched layer with valid lengths).
const canaryPooling = references.pooling;
const canaryCase = canaryPooling.cases.find((c) => c.kernel === 'gaussian' && c.w === 1);
const canaryDot = references.dotProductAttention[1];
export function assertStillWorks() {
  const prediction = api.nadarayaWatson(f64(canaryPooling.queries), f64(canaryPooling.keys),
    f64(canaryPooling.values), { kernel: 'gaussian', w: 1 });
  assertClose(prediction, canaryCase.prediction, 1e-9, 'canary nadarayaWatson');
  const dot = api.dotProductAttention({
    queries: f64(canaryDot.queries), keys: f64(canaryDot.keys), values: f64(canaryDot.values),
    shape: canaryDot.shape, validLens: flat(canaryDot.validLens),
  });
  assertClose(dot.output, canaryDot.output, 1e-9, 'canary dotProductAttention');
}

// The fields of an error of the API agree with its message: argument and
// expected open it ("<argument>: expected <expected>"; the one error worded
// otherwise, "<name>: its shape asks for more than ...", still opens with its
// argument), got is in it (or '', when it names no value), and index is the
// number after "at index", or undefined when the message has none.
export function assertErrorFields(error, label = '') {
  const { message } = error;
  assert.equal(typeof error.argument, 'string', `${label}: no argument field on "${message}"`);
  assert.ok(message.startsWith(`${error.argument}: `), `${label}: "${message}" does not open with ${error.argument}`);
  assert.ok(typeof error.expected === 'string' && error.expected !== '', `${label}: no expected field`);
  if (message.startsWith(`${error.argument}: expected `)) {
    assert.ok(message.startsWith(`${error.argument}: expected ${error.expected}`),
      `${label}: expected "${error.expected}" does not follow "${error.argument}: expected" in "${message}"`);
  }
  assert.equal(typeof error.got, 'string', `${label}: got is not a string`);
  if (error.got !== '') assert.ok(message.includes(error.got), `${label}: got "${error.got}" not in "${message}"`);
  const at = / at index (\d+)$/.exec(message);
  assert.equal(error.index, at ? Number(at[1]) : undefined, `${label}: index of "${message}"`);
  for (const field of ['argument', 'expected', 'got', 'index']) {
    assert.ok(Object.hasOwn(error, field), `${label}: ${field} is not an own property`);
  }
}

// The call throws an Error whose message starts with "<argument>: " and whose
// argument field is <argument> (and whose message contains `detail` if
// given); then the module still returns correct results. Returns the error.
export function assertArgumentError(call, argument, detail) {
  let caught = null;
  try {
    call();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, `expected an error naming ${argument}, but the call returned`);
  assert.ok(caught instanceof Error, `expected an Error, got ${typeof caught}: ${caught}`);
  assert.ok(caught.message.startsWith(`${argument}: `),
    `expected the message to name ${argument}, got "${caught.message}"`);
  assert.equal(caught.argument, argument, `the argument field of "${caught.message}"`);
  assertErrorFields(caught, argument);
  if (detail !== undefined) {
    assert.ok(caught.message.includes(detail), `expected "${detail}" in "${caught.message}"`);
  }
  assertStillWorks();
  return caught;
}

// What an error's quote of a caller's text escapes (core/contract/errors.hpp,
// quoted()): every control, format, private-use, unassigned, surrogate, line-
// and paragraph-separator and default-ignorable code point, by the Unicode
// properties of Node's own ICU (a newer Unicode than the core's table may
// know more characters: the core escapes those as unassigned, never the reverse).
export const QUOTE_ESCAPES = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
export const QUOTE_LIMIT = 200; // code points a quote shows at most

// A quote ('...', with an ellipsis where text is left out) read back: its
// escapes (\x0a, \u00AD, \u{E0001}; a lone surrogate's \uD800) as the code
// points they stand for. { text, cutBefore, cutAfter }.
export function unquote(got) {
  assert.ok(got.startsWith("'") && got.endsWith("'") && got.length >= 2, `not a quote: ${got}`);
  let inner = got.slice(1, -1);
  const cutBefore = inner.startsWith('\u2026');
  if (cutBefore) inner = inner.slice(1);
  const cutAfter = inner.endsWith('\u2026');
  if (cutAfter) inner = inner.slice(0, -1);
  const text = inner.replace(/\\x([0-9a-f]{2})|\\u\{([0-9A-F]{5,6})\}|\\u([0-9A-F]{4})/g,
    (_, byte, astral, bmp) => String.fromCodePoint(parseInt(byte ?? astral ?? bmp, 16)));
  return { text, cutBefore, cutAfter };
}

// The Unicode general categories, and the code points Node's ICU puts in
// each (Cs: the lone surrogates), for tests that type every kind of character.
export const GENERAL_CATEGORIES = Object.freeze(['Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'Mn', 'Mc', 'Me', 'Nd', 'Nl', 'No', 'Pc', 'Pd',
  'Ps', 'Pe', 'Pi', 'Pf', 'Po', 'Sm', 'Sc', 'Sk', 'So', 'Zs', 'Zl', 'Zp', 'Cc', 'Cf', 'Cs', 'Co', 'Cn']);
export function codePointsByCategory() {
  const every = [];
  for (let c = 0; c <= 0x10ffff; c += 1) if (c < 0xd800 || c > 0xdfff) every.push(String.fromCodePoint(c));
  const all = every.join('');
  const byCategory = {};
  for (const category of GENERAL_CATEGORIES) {
    byCategory[category] = category === 'Cs' ? Array.from({ length: 0x800 }, (_, i) => 0xd800 + i)
      : Array.from(all.matchAll(new RegExp(`\\p{gc=${category}}`, 'gu')), ([ch]) => ch.codePointAt(0));
  }
  return byCategory;
}
