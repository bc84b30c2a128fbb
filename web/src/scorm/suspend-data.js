// The learner's exercise entries as cmi.suspend_data text, compactly: SCORM
// 1.2 holds at most 4096 characters there (2004: 64000), and the lab has
// dozens of exercises. Entries are grouped by section and keyed by name, not
// by position, so a package rebuilt with more exercises still reads what an
// earlier one stored:
//
//   1;pooling:average-query=r1,read-prediction=v3.b;masking:masked-row=w2
//
// "1" is the format's version; each entry is its status' letter (o open,
// w wrong, c close, r right, v revealed), its tries (0-3) and, past the
// first, its instance in base 36 after a dot. An entry still at its start
// (open, no tries, first instance) is not written. Reading is defensive: the
// text comes from the LMS, and an entry that does not parse is dropped
// (the progress store checks every entry again). Text far longer than
// either version holds is no suspend_data of the lab's, and is not read.
const FORMAT = '1';
export const MAX_SUSPEND_DATA = 256 * 1024;
const LETTERS = Object.freeze({ open: 'o', wrong: 'w', close: 'c', right: 'r', revealed: 'v' });
const STATUS_OF = Object.freeze(Object.fromEntries(Object.entries(LETTERS).map(([status, letter]) => [letter, status])));
const ID = /^[\w-]+$/;
const ENTRY = /^([owcrv])(\d)(?:\.([0-9a-z]{1,7}))?$/;

const untouched = ({ status, attempts, instance }) => status === 'open' && attempts === 0 && instance === 0;

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
    sections.get(section).push(`${id}=${LETTERS[entry.status]}${entry.attempts}${instance}`);
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
      const [, letter, attempts, instance] = match;
      entries[`${section}.${id}`] = Object.freeze({
        status: STATUS_OF[letter], attempts: Number(attempts), instance: instance ? parseInt(instance, 36) : 0,
      });
    }
  }
  return entries;
}
