// The page's state in the URL hash, read and written through the parameter
// table (state.js): any entry of the table is carried, with no list here.
//
//   #n=200&noise=0.3&kernel=boxcar&w=2.5&language=zh&section=pooling
//
// `lang` is read as `language` (#lang=zh), as the element reads its lang
// attribute; a hash the page writes names it `language`.
//
// Reading is defensive: the hash is text anybody can write. Only keys that
// are own entries of the table (or one of the view keys below) are read;
// numbers must look like plain decimal numbers (no "Infinity", "0x1f" or
// "1_000") and are then clamped and snapped by clampValue; choices must be
// one of their options; anything else is ignored and the parameter keeps its
// default. A value is only ever stored in the state object, never written
// into the page as markup. Repeated keys: the last one wins. Long input is
// cut: the hash at 4096 characters, a value at 64, at most 256 entries.
//
// View keys (not parameters of the maths):
//   section=<id>      the section to scroll to (the page) / to show (element)
//   embed=<id>        iframe mode: only that section, no masthead (embed.js)
//   hide=<a>,<b>,...  in embed mode: controls to hide, by parameter name or
//                     button action, or `controls`, `export`, `text`,
//                     `numbers` (the section's number, for a course that
//                     numbers its own parts)
//   heading=<text>    in embed mode: the section's title in the course's own
//                     words (plain text, at most 120 characters), in place
//                     of the lab's title and section number
//   exercises=on|off|answers
//                     the exercises shown (on, the default), hidden, or shown
//                     with every answer and the teacher's notes (for the
//                     teacher's own screen); read when the page opens,
//                     never in a SCORM package (scorm/launch.js: graded,
//                     the learner's mode only)
import { clampValue, parameters } from './state.js';

export const EXERCISE_MODES = Object.freeze(['on', 'off', 'answers']);

// An exercises= text (hash or attribute) -> a mode, or null when it is none.
export const readExerciseMode = (raw) => (typeof raw === 'string' && EXERCISE_MODES.includes(raw.trim()) ? raw.trim() : null);

// How long the state must rest before the hash is rewritten (a drag's end).
const WRITE_AFTER_MS = 250;

export const LIMITS = Object.freeze({ hash: 4096, value: 64, key: 40, entries: 256, hide: 64, heading: 120 });

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?$/;
const TOKEN = /^[A-Za-z][\w-]{0,39}$/;

export const isParameter = (name) => typeof name === 'string' && Object.hasOwn(parameters, name);

// One raw text (from the hash or an element's attribute) -> a value of the
// parameter's domain, or undefined when the text is not a value at all.
export function readParameter(name, raw) {
  if (!isParameter(name) || typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (text.length === 0 || text.length > LIMITS.value) return undefined;
  const spec = parameters[name];
  switch (spec.type) {
    case 'integer':
    case 'number':
      return DECIMAL.test(text) ? clampValue(name, text) : undefined;
    case 'boolean':
      return ['true', 'false', '1', '0'].includes(text) ? clampValue(name, text) : undefined;
    case 'choice':
      return spec.options.includes(text) ? text : undefined;
    default:
      return undefined;
  }
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null; // a broken %-escape: not a value
  }
}

export function parseHideList(raw) {
  if (typeof raw !== 'string') return [];
  return [...new Set(raw.split(',').map((token) => token.trim()).filter((token) => TOKEN.test(token)))]
    .slice(0, LIMITS.hide);
}

// A course page's title for its section: text only (it is only ever set as
// textContent), control characters dropped, spaces collapsed, cut at
// LIMITS.heading characters; null when nothing is left.
export function readHeading(raw) {
  if (typeof raw !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const text = [...raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim()]
    .slice(0, LIMITS.heading).join('');
  return text.length > 0 ? text : null;
}

// hash: location.hash (with or without '#'). sectionIds: the registry's ids.
// Returns { params, section, embed, hide, heading, exercises, anchor }: `anchor` is set when the
// hash is a plain in-page link (#pooling, #main) rather than state.
/** @param {string} hash @param {readonly string[]} [sectionIds] */
export function parseHash(hash, sectionIds = []) {
  const text = String(hash ?? '').replace(/^#/, '').slice(0, LIMITS.hash);
  const result = {
    params: {}, section: null, embed: null, hide: [], heading: null, exercises: null, anchor: null,
  };
  if (text.length === 0) return result;
  if (!text.includes('=')) {
    const anchor = decode(text);
    result.anchor = anchor !== null && TOKEN.test(anchor) ? anchor : null;
    if (result.anchor && sectionIds.includes(result.anchor)) result.section = result.anchor;
    return result;
  }
  for (const part of text.split('&').slice(0, LIMITS.entries)) {
    const equals = part.indexOf('=');
    if (equals <= 0) continue;
    const written = decode(part.slice(0, equals));
    const key = written === 'lang' ? 'language' : written;
    const raw = decode(part.slice(equals + 1));
    if (key === null || raw === null || key.length > LIMITS.key) continue;
    if (key === 'section' || key === 'embed') {
      if (sectionIds.includes(raw)) result[key] = raw;
    } else if (key === 'hide') {
      result.hide = parseHideList(raw);
    } else if (key === 'heading') {
      result.heading = readHeading(raw);
    } else if (key === 'exercises') {
      result.exercises = readExerciseMode(raw);
    } else if (isParameter(key)) {
      const value = readParameter(key, raw);
      if (value !== undefined) result.params[key] = value;
      else delete result.params[key]; // a later bad repeat does not keep an earlier good one
    }
  }
  return result;
}

// state -> hash text (without '#'): the view keys, every parameter that
// differs from its default, and always the language.
export function formatHash(state, view = {}) {
  const parts = [];
  if (view.embed) parts.push(`embed=${encodeURIComponent(view.embed)}`);
  if (view.hide?.length) parts.push(`hide=${view.hide.map(encodeURIComponent).join(',')}`);
  if (view.embed && view.heading) parts.push(`heading=${encodeURIComponent(view.heading)}`);
  if (view.exercises && view.exercises !== 'on') parts.push(`exercises=${view.exercises}`);
  for (const [name, spec] of Object.entries(parameters)) {
    const value = state[name];
    if (value === undefined || (name !== 'language' && Object.is(value, spec.default))) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  if (view.section && !view.embed) parts.push(`section=${encodeURIComponent(view.section)}`);
  return parts.join('&');
}

// The state a hash describes, as a full patch: parameters missing from the
// hash go back to their defaults, except the language, which stays.
export function patchFromHash(parsed) {
  const patch = {};
  for (const [name, spec] of Object.entries(parameters)) {
    if (Object.hasOwn(parsed.params, name)) patch[name] = parsed.params[name];
    else if (name !== 'language') patch[name] = spec.default;
  }
  return patch;
}

// Keeps location.hash in step with the store (history.replaceState: a
// slider drag makes no history entries), rewrites a hash the table
// repaired, follows a hash the user edits or
// pastes (hashchange), and turns in-page links (the table of contents, the
// skip link) into scrolling and focus so the state stays in the URL.
//
// land(target): lands on a section an edited hash names (#section=…), and
// keeps it there while the page settles (offscreen-sections.js landOn);
// without it, a plain scroll.
/**
 * @param {{ store: *, view: *, sectionIds: readonly string[], onSection?: (id: string) => void,
 *   land?: ((target: HTMLElement) => void) | null }} options
 */
export function startHashSync({ store, view, sectionIds, onSection, land = null }) {
  let timer = 0;
  // The hash as this page last left it. One the reader typed or pasted
  // since is theirs: a write due then (its hashchange is queued behind it)
  // leaves it for that hashchange to apply.
  let written = location.hash;
  let dirty = Boolean(location.hash) && !parseHash(location.hash, sectionIds).anchor;
  // A hash whose state the table had to repair (a pair the core refuses,
  // state.js constraints), or whose exercises mode the page does not show (a
  // SCORM package's is the learner's): the URL is rewritten at once to the page shown.
  if (dirty) {
    const parsed = parseHash(location.hash, sectionIds);
    const described = patchFromHash(parsed);
    const state = store.get();
    if (Object.keys(described).some((name) => !Object.is(described[name], state[name]))
      || parsed.exercises !== view.exercises) write();
  }

  function write() {
    clearTimeout(timer);
    timer = 0;
    if (location.hash !== written) return;
    const hash = `#${formatHash(store.get(), view)}`;
    if (hash !== location.hash) history.replaceState(history.state, '', hash);
    written = location.hash;
  }
  // Written once the changes rest: a drag sends an input every frame, and
  // rewriting the URL under it is work for the frames that show the drag.
  const schedule = () => {
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(write, WRITE_AFTER_MS);
  };
  store.subscribe(schedule);
  // A page left (or reloaded) within that time keeps its last state in the URL.
  window.addEventListener('pagehide', () => {
    if (timer) {
      clearTimeout(timer);
      write();
    }
  });

  function goTo(id, { focus = true, settle = false } = {}) {
    const target = document.getElementById(id);
    if (!target) return false;
    if (settle && land) land(target);
    else target.scrollIntoView({ block: 'start' });
    if (focus) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    }
    if (sectionIds.includes(id) && !view.embed) {
      view.section = id;
      onSection?.(id);
      schedule();
    }
    return true;
  }

  window.addEventListener('hashchange', () => {
    written = location.hash;
    if (location.hash.length <= 1) return; // "#": a link to nowhere, not an empty state
    const parsed = parseHash(location.hash, sectionIds);
    if (parsed.anchor !== null) {
      // A plain #id typed or followed: scroll there, then put the state back.
      goTo(parsed.anchor, { focus: false });
      if (dirty) write();
      return;
    }
    store.set(patchFromHash(parsed));
    if (parsed.section && parsed.section !== view.section && !view.embed) goTo(parsed.section, { focus: false, settle: true });
    else write();
  });

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (!link) return;
    const id = decode(link.getAttribute('href').slice(1));
    if (!id || id.includes('=') || !document.getElementById(id)) return;
    event.preventDefault();
    goTo(id);
  });

  // The section being read, kept in the hash as the page scrolls.
  let scrollTimer = 0;
  if (!view.embed) {
    window.addEventListener('scroll', () => {
      clearTimeout(scrollTimer);
      scrollTimer = setTimeout(() => {
        const line = 80; // below the sticky table of contents
        const reading = sectionIds.find((id) => {
          const box = document.getElementById(id)?.getBoundingClientRect();
          return box && box.top <= line && box.bottom > line;
        });
        if (reading && reading !== view.section) {
          view.section = reading;
          onSection?.(reading);
          if (dirty) schedule();
        }
      }, 250);
    }, { passive: true });
  }

  return { write, goTo };
}
