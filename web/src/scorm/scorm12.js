// The SCORM 1.2 side of a session: the LMS's `API` object (LMSInitialize,
// LMSGetValue, LMSSetValue, LMSCommit, LMSFinish) and its data model, the
// cmi.core elements. 1.2 has a single status for completion and success:
// passed or failed once outcome.js decides, else completed or incomplete.
import { succeeded, valueText, percent, threshold } from './lms-calls.js';
import { createInteractionWriter } from './interaction-writer.js';

export const API_NAME = 'API';

export function lessonStatus({ success, completed }) {
  if (success !== 'unknown') return success;
  return completed ? 'completed' : 'incomplete';
}

// CMITimespan: HHHH:MM:SS.SS (hours in two to four digits).
export function timespan(seconds) {
  const hundredths = Math.max(0, Math.round(seconds * 100));
  const hours = Math.min(9999, Math.floor(hundredths / 360000));
  const minutes = Math.floor(hundredths / 6000) % 60;
  const rest = (hundredths % 6000) / 100;
  const two = (value) => String(value).padStart(2, '0');
  return `${two(hours)}:${two(minutes)}:${rest.toFixed(2).padStart(5, '0')}`;
}

// A session with the LMS, or null when it refuses LMSInitialize.
export function connectScorm12(api) {
  if (!succeeded(api.LMSInitialize(''))) return null;
  const get = (element) => valueText(api.LMSGetValue(element), element);
  // Every write's answer counts: one refused ("false") leaves the report unsaved.
  let saved = true;
  const set = (element, value) => {
    saved = succeeded(api.LMSSetValue(element, String(value))) && saved;
  };
  // The answers' records (interactions.js), journaled: cmi.interactions is
  // write-only in 1.2, each record a new index from _count on.
  const interactions = createInteractionWriter({
    version: '1.2', count: () => get('cmi.interactions._count'), write: (element, value) => succeeded(api.LMSSetValue(element, value)),
  });
  return Object.freeze({
    version: '1.2',
    // The longest cmi.suspend_data 1.2 holds (CMIString4096).
    suspendDataLimit: 4096,
    suspendData: () => get('cmi.suspend_data'),
    // adlcp:masteryscore of the manifest, or the LMS's own: a percentage.
    mastery: () => threshold(get('cmi.student_data.mastery_score'), 100),
    // The answers and what they add up to, committed at once: a learner
    // who closes the tab has lost nothing they answered. true when the LMS
    // took every value and the commit (the answers' records, `interactions`,
    // aside: an LMS may keep none, and the learner's answers are saved without them).
    report({ suspendData, outcome, interactions: records = [] }) {
      saved = true;
      set('cmi.suspend_data', suspendData);
      if (outcome.score !== null) {
        set('cmi.core.score.min', 0);
        set('cmi.core.score.max', 100);
        set('cmi.core.score.raw', percent(outcome.score));
      }
      set('cmi.core.lesson_status', lessonStatus(outcome));
      // "suspend": the next launch resumes with this suspend_data.
      set('cmi.core.exit', 'suspend');
      interactions.write(records);
      saved = succeeded(api.LMSCommit('')) && saved;
      return saved;
    },
    finish(seconds) {
      set('cmi.core.session_time', timespan(seconds));
      set('cmi.core.exit', 'suspend');
      api.LMSCommit('');
      api.LMSFinish('');
    },
  });
}
