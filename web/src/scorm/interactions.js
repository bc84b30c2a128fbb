// What the gradebook is told of each answer: one cmi.interactions record
// per check and per answer shown (never one per drag of a control), so a
// teacher sees which questions a class gets wrong, in SCORM 1.2 and 2004.
// This module is the mapping, without an LMS or a page:
//
//   answerEvents   the checks and reveals between two sets of entries (the
//                  progress store's, as cmi.suspend_data holds them)
//   interactionType, interactionResult, responseText, latencyText, timeText
//                  an exercise and an event as each version writes them
//
// The decisions (docs/learning-and-teaching.md says them to teachers):
//   id       the exercise's name, "<section>.<id>" (pooling.average-query),
//            the same in both versions; repeated, one record per event
//   type     choice for an exercise with options (concept, and predictions
//            that pick), numeric for a number (compute, predictions of a
//            number), performance for a make-it-happen task (the section's
//            controls are its answer)
//   result   right: correct. Wrong or close: wrong (1.2) / incorrect
//            (2004); a last try that is not right shows the answer, and is
//            still that try's result. "Show answer": neutral, with no
//            response: the learner gave none, and the score does not
//            count it (a record of its own, so a teacher tells "gave up"
//            from "answered wrong")
//   latency  from the moment the card was first on screen in this session
//            (the launch, for a card never seen) or the exercise's
//            previous check, answer shown or fresh start, whichever is
//            later, to the check
//   response the learner's answer: a choice's option ids, a number as a
//            plain decimal, a task's settings off their defaults when it
//            was done; none when there is nothing to say

export const VERSIONS = Object.freeze(['1.2', '2004']);
// The records a session writes at most (cmi.interactions._count included:
// an LMS hands back those of earlier sessions). 250 is the smallest number
// SCORM 2004 lets an LMS keep (its SPM), the bound for both versions: past
// it an answer is still stored and scored, and no record is written.
export const MAX_INTERACTIONS = 250;

const EVENTS = Object.freeze(['right', 'wrong', 'close', 'revealed']);

// An exercise (its declaration: kind, options) -> the interaction type,
// the same word in both versions.
export function interactionType({ kind, options }) {
  if (options) return 'choice';
  if (kind === 'achieve') return 'performance';
  if (kind === 'compute' || kind === 'predict') return 'numeric';
  throw new Error(`${kind}: no interaction type for this exercise`);
}

// An event ('right', 'wrong', 'close', 'revealed') -> the version's result.
export function interactionResult(event, version) {
  if (!VERSIONS.includes(version)) throw new Error(`${version}: not a SCORM version`);
  if (!EVENTS.includes(event)) throw new Error(`${event}: not an answer's event`);
  if (event === 'right') return 'correct';
  if (event === 'revealed') return 'neutral';
  return version === '1.2' ? 'wrong' : 'incorrect';
}

// A number as a plain decimal (no exponent): at most 10 digits before the
// point (both versions' CMIDecimal), at most 10 after it; null when it has
// more before it, or is no number.
export function decimalText(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const rounded = Math.round(value * 1e10) / 1e10;
  if (Math.abs(rounded) >= 1e10) return null;
  const text = rounded.toFixed(10).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

// 2004's characterstring of a performance step: no delimiter in it, 1 to 250 characters.
const stepAnswer = (value) => {
  const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
  return text.length >= 1 && text.length <= 250 && !/\[[,.:]\]/.test(text) ? text : null;
};
const SHORT_IDENTIFIER = /^[\w.-]{1,250}$/;

// The learner's answer as the version writes it, or null for none:
//   choice       option ids ("ignores"; several "a,b" in 1.2, "a[,]b" in 2004)
//   numeric      the number, a plain decimal
//   performance  the settings it was done at, those off their defaults
//                (given-settings.js), "name:value,..." in 1.2,
//                "name[.]value[,]..." in 2004 (step name, step answer)
// 1.2's is a CMIString255: a longer one is cut at a whole item.
export function responseText(type, answer, version) {
  if (!VERSIONS.includes(version)) throw new Error(`${version}: not a SCORM version`);
  if (answer === null || answer === undefined) return null;
  let items;
  if (type === 'choice') {
    const ids = [...new Set([answer].flat())];
    if (ids.length === 0 || !ids.every((id) => typeof id === 'string' && SHORT_IDENTIFIER.test(id))) return null;
    items = ids;
  } else if (type === 'numeric') {
    return decimalText(answer);
  } else if (type === 'performance') {
    if (typeof answer !== 'object') return null;
    items = Object.entries(answer).filter(([name]) => SHORT_IDENTIFIER.test(name))
      .map(([name, value]) => [name, stepAnswer(value)]).filter(([, value]) => value !== null)
      .map(([name, value]) => (version === '1.2' ? `${name}:${value}` : `${name}[.]${value}`));
    if (items.length === 0) return null;
  } else {
    throw new Error(`${type}: not an interaction type of the lab's`);
  }
  if (version === '2004') return items.slice(0, 36).join('[,]');
  let text = '';
  for (const item of items) {
    const next = text === '' ? item : `${text},${item}`;
    if (next.length > 255) break;
    text = next;
  }
  return text === '' ? null : text;
}

// Latency: 1.2's CMITimespan (HH:MM:SS.SS), 2004's timeinterval (PT1.5S).
export function latencyText(seconds, version) {
  const hundredths = Math.max(0, Math.round(seconds * 100));
  if (version === '2004') return `PT${hundredths / 100}S`;
  if (version !== '1.2') throw new Error(`${version}: not a SCORM version`);
  const hours = Math.min(9999, Math.floor(hundredths / 360000));
  const two = (value) => String(value).padStart(2, '0');
  const rest = ((hundredths % 6000) / 100).toFixed(2).padStart(5, '0');
  return `${two(hours)}:${two(Math.floor(hundredths / 6000) % 60)}:${rest}`;
}

// When: 1.2's CMITime, the time of day (HH:MM:SS, the learner's clock, as
// 1.2 has no time zone); 2004's time(second,10,2), UTC to the hundredth.
export function timeText(date, version) {
  const two = (value) => String(value).padStart(2, '0');
  if (version === '1.2') return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
  if (version !== '2004') throw new Error(`${version}: not a SCORM version`);
  return `${date.toISOString().slice(0, 19)}.${two(Math.floor(date.getUTCMilliseconds() / 10))}Z`;
}

const NONE = Object.freeze({ status: 'open', attempts: 0, instance: 0 });

// The checks, answers shown and fresh starts between `before` and `after`
// (entries by name) for the exercises `names`, in their order:
//   { name, event: 'right' | 'wrong' | 'close' | 'revealed' | 'fresh', entry }
// (entry: the exercise's entry after it).
// A check counts one try: the tries up by one on the same instance, its
// result the new status (a try that was not right and showed the answer,
// the last or a prediction's one, is 'wrong': close and wrong are one
// result to an LMS). "Show answer": revealed, the tries unchanged.
// 'fresh': another instance, a fresh try, or the answers reset (the
// latency's clock starts again; no record). A prediction committed before
// its run is none of these: it is checked once the run has trained.
export function answerEvents(before, after, names) {
  const events = [];
  for (const name of names) {
    const was = (Object.hasOwn(before, name) && before[name]) || NONE;
    const now = (Object.hasOwn(after, name) && after[name]) || NONE;
    if (was === now) continue;
    if (now.instance === was.instance && now.attempts === was.attempts + 1 && now.status !== 'open') {
      events.push({ name, event: now.status === 'revealed' ? 'wrong' : now.status, entry: now });
    } else if (now.instance === was.instance && now.attempts === was.attempts && now.status === 'revealed' && was.status !== 'revealed') {
      events.push({ name, event: 'revealed', entry: now });
    } else if (now.instance !== was.instance || now.attempts < was.attempts) {
      events.push({ name, event: 'fresh', entry: now });
    }
  }
  return events;
}
