// The SCORM 1.2 side of a session: the LMS's `API` object (LMSInitialize,
// LMSGetValue, LMSSetValue, LMSCommit, LMSFinish) and its data model, the
// cmi.core elements. 1.2 has a single status for completion and success:
// passed or failed once outcome.js decides, else completed or incomplete.
import { succeeded, percent, threshold } from './lms-calls.js';

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
  const get = (element) => String(api.LMSGetValue(element) ?? '');
  const set = (element, value) => api.LMSSetValue(element, String(value));
  return Object.freeze({
    version: '1.2',
    suspendData: () => get('cmi.suspend_data'),
    // adlcp:masteryscore of the manifest, or the LMS's own: a percentage.
    mastery: () => threshold(get('cmi.student_data.mastery_score'), 100),
    // The answers and what they add up to, committed at once: a learner
    // who closes the tab has lost nothing they answered.
    report({ suspendData, outcome }) {
      set('cmi.suspend_data', suspendData);
      if (outcome.score !== null) {
        set('cmi.core.score.min', 0);
        set('cmi.core.score.max', 100);
        set('cmi.core.score.raw', percent(outcome.score));
      }
      set('cmi.core.lesson_status', lessonStatus(outcome));
      // "suspend": the next launch resumes with this suspend_data.
      set('cmi.core.exit', 'suspend');
      api.LMSCommit('');
    },
    finish(seconds) {
      set('cmi.core.session_time', timespan(seconds));
      set('cmi.core.exit', 'suspend');
      api.LMSCommit('');
      api.LMSFinish('');
    },
  });
}
