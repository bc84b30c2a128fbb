// The SCORM 2004 (4th edition) side of a session: the LMS's `API_1484_11`
// object (Initialize, GetValue, SetValue, Commit, Terminate) and its data
// model, where completion and success are two elements.
import { succeeded, percent, scaled, threshold } from './lms-calls.js';

export const API_NAME = 'API_1484_11';

// timeinterval (second,10,2): an ISO 8601 duration.
export const duration = (seconds) => `PT${Math.max(0, Math.round(seconds * 100)) / 100}S`;

// A session with the LMS, or null when it refuses Initialize.
export function connectScorm2004(api) {
  if (!succeeded(api.Initialize(''))) return null;
  const get = (element) => String(api.GetValue(element) ?? '');
  const set = (element, value) => api.SetValue(element, String(value));
  return Object.freeze({
    version: '2004',
    // Empty on a first launch (the LMS may also report error 403, not initialised: the same).
    suspendData: () => get('cmi.suspend_data'),
    // The manifest's minNormalizedMeasure, or the LMS's own: a scaled score in [-1, 1].
    mastery: () => threshold(get('cmi.scaled_passing_score'), 1),
    // The answers and what they add up to, committed at once.
    report({ suspendData, outcome }) {
      set('cmi.suspend_data', suspendData);
      if (outcome.score !== null) {
        set('cmi.score.min', 0);
        set('cmi.score.max', 100);
        set('cmi.score.raw', percent(outcome.score));
        set('cmi.score.scaled', scaled(outcome.score));
      }
      // The share finished (0 would read as "not attempted": left unset until something is).
      if (outcome.finished > 0) set('cmi.progress_measure', scaled(outcome.finished / outcome.total));
      set('cmi.completion_status', outcome.completed ? 'completed' : 'incomplete');
      set('cmi.success_status', outcome.success);
      // "suspend": the next launch resumes with this suspend_data.
      set('cmi.exit', 'suspend');
      api.Commit('');
    },
    finish(seconds) {
      set('cmi.session_time', duration(seconds));
      set('cmi.exit', 'suspend');
      api.Commit('');
      api.Terminate('');
    },
  });
}
