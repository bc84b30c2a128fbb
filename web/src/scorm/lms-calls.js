// What both SCORM versions' sessions share: an API call's "true" (the API
// may answer a string or a boolean), a value read as text, and the score as
// the LMS takes it. A call that throws is not caught here: at launch the
// page then falls back to the plain lab (launch.js), later the answers are
// said to be unsaved (suspend-data-storage.js).
export const succeeded = (result) => result === true || result === 'true';

// What GetValue answered, as text: a string, or a number as JS writes it;
// nothing ('') for null or undefined. Anything else (an object, whose
// toString may throw or answer differently each time) is no answer of a
// SCORM API: refused, as a throw.
export function valueText(value, element) {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value === null || value === undefined) return '';
  throw new Error(`${element}: the LMS answered a ${typeof value}, not text`);
}

// A share in [0, 1] as a percentage with two decimals (cmi.*.score.raw).
export const percent = (share) => Math.round(share * 10000) / 100;

// A share in [0, 1] with four decimals (cmi.score.scaled, cmi.progress_measure).
export const scaled = (share) => Math.round(share * 10000) / 10000;

// The LMS's mastery threshold as a share in [0, 1], or null when it sets none
// (an empty value) or one that is no share. `per`: 100 for 1.2's percent.
export function threshold(text, per) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') return null;
  const share = Number(trimmed) / per;
  return Number.isFinite(share) && share >= 0 && share <= 1 ? share : null;
}
