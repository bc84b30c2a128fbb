// The learner's exercise entries as cmi.suspend_data text, compactly: SCORM
// 1.2 holds at most 4096 characters there (2004: 64000), and the lab has
// dozens of exercises. Entries are grouped by section and keyed by name, not
// by position, so a package rebuilt with more exercises still reads what an
// earlier one stored:
//
//   1;pooling:average-query=r1,read-prediction=v3.b;masking:masked-row=w2
//
//   1;positional:angle=r1~peDim:48+peRow:78;translation:eight=o0@eighty
//
// "1" is the format's version; each entry is its status' letter (o open,
// w wrong, c close, r right, v revealed), its tries (0-3) and, past the
// first, its instance in base 36 after a dot; then the settings it was
// given for that are not the defaults (given-settings.js), "name:value"
// joined by "+" after a "~" (a switch's value 1 or 0); then an open
// prediction's committed answer after an "@": its options' ids joined by
// "/", or "#" and a number. An entry still at its start (open, no tries,
// first instance, nothing committed) is not written. Reading is defensive: the
// text comes from the LMS, and an entry that does not parse is dropped
// (the progress store checks every entry again). Text far longer than
// either version holds is no suspend_data of the lab's, and is not read.
import { parameters } from '../state.js';

const FORMAT = '1';
export const MAX_SUSPEND_DATA = 256 * 1024;
const LETTERS = Object.freeze({ open: 'o', wrong: 'w', close: 'c', right: 'r', revealed: 'v' });
const STATUS_OF = Object.freeze(Object.fromEntries(Object.entries(LETTERS).map(([status, letter]) => [letter, status])));
const ID = /^[\w-]+$/;
const ENTRY = /^([owcrv])(\d)(?:\.([0-9a-z]{1,7}))?(?:~([^@]*))?(?:@(.*))?$/;

const untouched = ({ status, attempts, instance, committed }) => status === 'open' && attempts === 0 && instance === 0
  && committed === undefined;

const settingText = (value) => (typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
// A "~" alone: given at the defaults (no "~": bound to nothing).
function encodeGiven(given) {
  if (!given) return '';
  return `~${Object.entries(given).map(([name, value]) => `${name}:${settingText(value)}`).join('+')}`;
}
function encodeCommitted(committed) {
  if (committed === undefined) return '';
  return typeof committed === 'number' ? `@#${committed}` : `@${[committed].flat().join('/')}`;
}

// "name:value+..." -> { name: value }, each value typed by its parameter
// (the progress store then keeps only values the table holds).
function decodeGiven(text) {
  const given = {};
  for (const setting of text === '' ? [] : text.split('+')) {
    const colon = setting.indexOf(':');
    const name = setting.slice(0, colon);
    const raw = setting.slice(colon + 1);
    if (colon <= 0 || !Object.hasOwn(parameters, name)) return undefined;
    const { type } = parameters[name];
    if (type === 'boolean') given[name] = raw === '1' ? true : raw === '0' ? false : raw;
    else if (type === 'choice') given[name] = raw;
    else given[name] = raw.trim() === '' ? raw : Number(raw);
  }
  return given;
}
const decodeCommitted = (text) => (text.startsWith('#') ? Number(text.slice(1)) : (text.includes('/') ? text.split('/') : text));

// entries: { "<section>.<id>": { status, attempts, instance } } -> text.
export function encodeSuspendData(entries) {
  const sections = new Map();
  for (const [name, entry] of Object.entries(entries)) {
    const dot = name.indexOf('.');
    const section = name.slice(0, dot);
    const id = name.slice(dot + 1);
    if (dot <= 0 || !ID.test(section) || !ID.test(id) || !Object.hasOwn(LETTERS, entry?.status)) continue;
    if (untouched(entry)) continue;
    const instance = entry.instance > 0 ? `.${entry.instance.toString(36)}` : '';
    if (!sections.has(section)) sections.set(section, []);
    sections.get(section).push(`${id}=${LETTERS[entry.status]}${entry.attempts}${instance}${encodeGiven(entry.given)}${encodeCommitted(entry.committed)}`);
  }
  return [FORMAT, ...[...sections].map(([section, items]) => `${section}:${items.join(',')}`)].join(';');
}

// text -> entries (an object without a prototype); {} for text of another format.
export function decodeSuspendData(text) {
  const entries = Object.create(null);
  if (typeof text !== 'string' || text.length > MAX_SUSPEND_DATA) return entries;
  const [format, ...groups] = text.split(';');
  if (format !== FORMAT) return entries;
  for (const group of groups) {
    const colon = group.indexOf(':');
    const section = group.slice(0, colon);
    if (colon <= 0 || !ID.test(section)) continue;
    for (const item of group.slice(colon + 1).split(',')) {
      const equals = item.indexOf('=');
      const id = item.slice(0, equals);
      const match = item.slice(equals + 1).match(ENTRY);
      if (equals <= 0 || !ID.test(id) || !match) continue;
      const [, letter, attempts, instance, given, committed] = match;
      const entry = { status: STATUS_OF[letter], attempts: Number(attempts), instance: instance ? parseInt(instance, 36) : 0 };
      if (given !== undefined) entry.given = decodeGiven(given);
      if (committed) entry.committed = decodeCommitted(committed);
      entries[`${section}.${id}`] = Object.freeze(entry);
    }
  }
  return entries;
}
