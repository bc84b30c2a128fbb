// The settings an answer was given for. An exercise's first check (or its
// answer shown) binds its entry to the section's inputs of that moment:
// moving a control afterwards leaves the card answered for those settings
// (exercise-block.js) instead of rewriting its question under its verdict.
//
// An entry keeps only the inputs that differ from the parameter table's
// defaults (state.js): an answer at the defaults keeps nothing, and an
// entry stays small enough for SCORM 1.2's 4,096 characters of
// suspend_data. What is read back is checked against the same table, so a
// tampered entry brings no value a control could not hold.
import { parameters, clampValue } from '../state.js';

// The language is the reader's, not the question's: never part of one.
const UNBOUND = new Set(['language']);
// More settings than any section has: a larger object is no entry's.
export const MAX_GIVEN_SETTINGS = 64;

// inputs (a section's, by name) -> the ones that differ from their defaults.
export function givenOf(inputs) {
  const given = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (UNBOUND.has(name) || !Object.hasOwn(parameters, name)) continue;
    if (!Object.is(value, parameters[name].default)) given[name] = value;
  }
  return Object.freeze(given);
}

// The section's inputs as they were given: `inputs` names them, `given`
// holds those that were not at their defaults.
export function givenInputs(given, inputs) {
  const values = {};
  for (const name of Object.keys(inputs)) {
    if (UNBOUND.has(name)) values[name] = inputs[name];
    else if (Object.hasOwn(given, name)) values[name] = given[name];
    else values[name] = Object.hasOwn(parameters, name) ? parameters[name].default : inputs[name];
  }
  return values;
}

// A stored `given` as the page takes it, or null when it is not one: a
// plain object of at most MAX_GIVEN_SETTINGS parameters of the table, each
// a value the table holds as it is (clampValue leaves it unchanged).
export function validGiven(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return null;
  const names = Object.keys(value);
  if (names.length > MAX_GIVEN_SETTINGS) return null;
  const given = {};
  for (const name of names) {
    if (UNBOUND.has(name) || !Object.hasOwn(parameters, name)) return null;
    const setting = value[name];
    if (!['number', 'string', 'boolean'].includes(typeof setting)) return null;
    const held = clampValue(name, setting, undefined);
    if (!Object.is(held, setting)) return null;
    given[name] = setting;
  }
  return Object.freeze(given);
}

// The names whose values differ between two sets of inputs (same names).
export const changedSettings = (from, to) => Object.keys(to).filter((name) => !UNBOUND.has(name) && !Object.is(from[name], to[name]));
