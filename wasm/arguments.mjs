// Reading the caller's arguments without trusting them. Everything the API
// hands to C++ is read or made here, in JS, before the call: genuine
// Float64Arrays and Int32Arrays, numbers, strings and booleans. So no code of
// the caller (a getter, a Proxy trap, an own `length`, a subclass's `set`)
// can run while C++ holds memory, and what C++ copies is exactly what was
// checked.
//
// Typed arrays are read through the intrinsic accessors of %TypedArray%,
// captured when this module loads (and by C++'s helpers, see
// typed-array-intrinsics.pre.js), which read the object's internal slots:
// an own `length`, a subclass or a Proxy cannot lie to them. Arrays (and
// Proxies of arrays) are read once, index by index, never through an
// iterator; whatever the caller's code throws while they are read becomes an
// argument error naming the argument, with the original as its `cause`.

const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const uncurry = (method) => Function.prototype.call.bind(method);
const intrinsicGetter = (object, key) => uncurry(Object.getOwnPropertyDescriptor(object, key).get);
const kindOf = intrinsicGetter(TypedArrayPrototype, Symbol.toStringTag); // undefined for anything else
const lengthOf = intrinsicGetter(TypedArrayPrototype, 'length');
const bufferOf = intrinsicGetter(TypedArrayPrototype, 'buffer');
const byteLengthOf = intrinsicGetter(ArrayBuffer.prototype, 'byteLength');
const isIntrinsicArray = Array.isArray;

// An array-like claiming more elements than the wasm memory's maximum (1 GB
// of doubles, wasm/CMakeLists.txt) could never be copied in: it is refused
// before anything is allocated or read. (The core's own limits are far lower.)
const MAX_ARRAY_LIKE_LENGTH = 2 ** 27;

// The fields every error of the API carries: `argument` (the name the caller
// used), `expected`, `got` ('' when the error names no value) and `index`
// (the element at fault, or undefined).
export function withFields(error, { argument, expected, got, index }) {
  return Object.assign(error, { argument, expected, got, index });
}

// An argument error raised on this side, worded like the core's:
// "<argument>: expected <expected>[, got <got>][ at index <index>]".
export function argumentError(argument, expected, got = undefined, index = undefined, cause = undefined) {
  let message = `${argument}: expected ${expected}`;
  if (got !== undefined) message += `, got ${got}`;
  if (index !== undefined) message += ` at index ${index}`;
  const error = cause === undefined ? new Error(message) : new Error(message, { cause });
  return withFields(error, { argument, expected, got: got ?? '', index });
}

// The class name of a genuine typed array ('Float64Array', ...; a subclass
// has its base's), or undefined for anything else, Proxies included.
function typedArrayKind(value) {
  return value !== null && typeof value === 'object' ? kindOf(value) : undefined;
}

// Array.isArray, which sees through Proxies, but false for a revoked one
// (for which Array.isArray throws).
export function isArray(value) {
  try {
    return isIntrinsicArray(value);
  } catch {
    return false;
  }
}

function isArrayBuffer(value) {
  try {
    byteLengthOf(value);
    return true;
  } catch {
    return false;
  }
}

const PRIMITIVE_NAMES = {
  string: 'String', number: 'Number', boolean: 'Boolean', bigint: 'BigInt', symbol: 'Symbol',
  undefined: 'undefined', function: 'Function',
};

// What a value is, for messages, read without running any of its code.
export function typeName(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return PRIMITIVE_NAMES[typeof value];
  const kind = typedArrayKind(value);
  if (kind !== undefined) return kind;
  if (ArrayBuffer.isView(value)) return 'DataView';
  if (isArray(value)) return 'an array';
  if (isArrayBuffer(value)) return 'ArrayBuffer';
  return 'Object';
}

// A short description of what the caller's code threw.
function thrown(cause) {
  const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : typeName(cause);
  return `an exception (${text.slice(0, 80)})`;
}

// value[key], with whatever the caller's getter or Proxy throws turned into
// an error naming `name`.
export function read(value, key, name) {
  try {
    return value[key];
  } catch (cause) {
    throw argumentError(name, 'a value that can be read', thrown(cause), undefined, cause);
  }
}

// object[key] if it is the object's own property, else undefined: an option
// left out takes its default even when other code on the page has put a
// property of that name on Object.prototype.
export function readOwn(object, key, name) {
  let own;
  try {
    own = Object.hasOwn(object, key);
  } catch (cause) { // a Proxy whose getOwnPropertyDescriptor trap throws
    throw argumentError(name, 'a value that can be read', thrown(cause), undefined, cause);
  }
  return own ? read(object, key, name) : undefined;
}

// The longest text handed to C++, in UTF-16 code units: longer than any name
// the core knows (so still no name when cut), and at least one code point
// more than the core's error quotes (200, core/contract/errors.hpp), so a
// cut text still shows cut, with its ellipsis.
const MAX_TEXT_LENGTH = 2 * (200 + 1);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// A string as C++ receives it: cut after MAX_TEXT_LENGTH code units (or
// one more, never between the two halves of a pair: so at least 201 code
// points), and a lone surrogate (which UTF-8 cannot carry: Embind would
// make another character of it) written as its escape, \uD800, so an error
// quotes what the caller wrote. No name of the core is changed by either.
export function textForCore(value) {
  if (value.length <= MAX_TEXT_LENGTH) return escapeLoneSurrogates(value);
  const last = value.charCodeAt(MAX_TEXT_LENGTH - 1);
  const split = last >= 0xd800 && last <= 0xdbff && /[\uDC00-\uDFFF]/.test(value[MAX_TEXT_LENGTH]);
  return escapeLoneSurrogates(value.slice(0, split ? MAX_TEXT_LENGTH + 1 : MAX_TEXT_LENGTH));
}

// A text whole, each lone surrogate written as its escape (for a text the
// core reads all of, such as a learner's typed source).
export function escapeLoneSurrogates(value) {
  return value.replace(LONE_SURROGATE, (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`);
}

// A typed array on a detached buffer, or out of the bounds of a resizable
// buffer that shrank, reads as length 0. %TypedArray%.prototype.at refuses
// both (and reads nothing of an empty array), so it tells them from an
// empty array; constructing a view on the buffer then tells which. Returns
// the error naming `name`, or null for an array that can be read.
const validated = uncurry(TypedArrayPrototype.at);
function unreadable(array, kind, name) {
  if (lengthOf(array) !== 0) return null;
  try {
    validated(array, 0);
    return null;
  } catch {
    try {
      new Uint8Array(bufferOf(array)); // eslint-disable-line no-new
      return argumentError(name, 'an array within its buffer', `a ${kind} out of its resizable buffer's bounds`);
    } catch {
      return argumentError(name, 'an array whose buffer is not detached', `a detached ${kind}`);
    }
  }
}

// A genuine typed array's numbers as a Float64Array (the caller's own one
// when it is one: C++ reads it through the intrinsic accessors); a detached,
// out-of-bounds or BigInt one is refused.
function typedNumbers(value, kind, name, expected) {
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array') throw argumentError(name, expected, kind);
  const refusal = unreadable(value, kind, name);
  if (refusal) throw refusal;
  if (kind === 'Float64Array') return value;
  return new Float64Array(value); // reads the internal slots: no code of the caller runs
}

// An array (or a Proxy of one) read once, index by index: each element is
// checked as it is copied, so what is checked is what is used.
function arrayNumbers(value, name, accept) {
  const length = read(value, 'length', name);
  if (!Number.isInteger(length) || length < 0 || length > MAX_ARRAY_LIKE_LENGTH) {
    const got = typeof length === 'number' ? `length ${length}` : `a length that is ${typeName(length)}`;
    throw argumentError(name, `an array of at most ${MAX_ARRAY_LIKE_LENGTH} numbers`, got);
  }
  const result = new Float64Array(length);
  for (let i = 0; i < length; i += 1) {
    const element = read(value, i, name);
    accept(element, i);
    result[i] = element;
  }
  return result;
}

// A typed array (not BigInt) or an array, as a Float64Array, each element
// passed to `accept` (which throws for a bad one).
function checkedNumbers(value, name, expected, accept) {
  const kind = typedArrayKind(value);
  if (kind !== undefined) {
    // Checked in a copy of our own: the caller's Float64Array (a subclass, maybe, with its own
    // forEach or iterator) runs no code here. The copy reads its internal slots.
    const typed = typedNumbers(value, kind, name, expected);
    const result = typed === value ? new Float64Array(value) : typed;
    for (let i = 0; i < result.length; i += 1) accept(result[i], i);
    return result;
  }
  if (isArray(value)) return arrayNumbers(value, name, accept);
  throw argumentError(name, expected, typeName(value));
}

// Numbers: a typed array (not BigInt) or an array of numbers, as a Float64Array.
// (A typed array's elements are numbers: only arrays need checking.)
export function numbers(value, name) {
  const accept = (element, i) => {
    if (typeof element !== 'number') throw argumentError(name, 'numbers', typeName(element), i);
  };
  const kind = typedArrayKind(value);
  if (kind !== undefined) return typedNumbers(value, kind, name, 'a Float64Array or an array of numbers');
  return checkedNumbers(value, name, 'a Float64Array or an array of numbers', accept);
}

// Whole numbers in [0, 2^31) as an Int32Array: a typed array (not BigInt) or an array.
export function wholeNumbers(value, name, expected = 'an Int32Array or an array of whole numbers') {
  const accept = (element, i) => {
    if (!Number.isInteger(element) || element < 0 || element > 2 ** 31 - 1) {
      const got = typeof element === 'number' ? String(element) : typeName(element);
      throw argumentError(name, `whole numbers in [0, ${2 ** 31 - 1}]`, got, i);
    }
  };
  return Int32Array.from(checkedNumbers(value, name, expected, accept));
}

// Valid lengths: null or undefined (no mask), or whole numbers as an Int32Array.
export function lengths(value, name = 'validLens') {
  if (value === null || value === undefined) return new Int32Array(0);
  return wholeNumbers(value, name, 'null, an Int32Array or an array of whole numbers');
}

// An array to write a result into: null (a new one), or a Float64Array,
// which C++ writes with the intrinsic `set` after checking its intrinsic length.
export function target(value, name) {
  if (value === null) return null;
  if (typedArrayKind(value) !== 'Float64Array') throw argumentError(name, 'null or a Float64Array', typeName(value));
  const refusal = unreadable(value, 'Float64Array', name);
  if (refusal) throw refusal;
  return value;
}
