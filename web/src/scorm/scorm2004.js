// The SCORM 2004 (4th edition) side of a session: the LMS's `API_1484_11`
// object (Initialize, GetValue, SetValue, Commit, Terminate) and its data
// model, where completion and success are two elements.
import { succeeded, valueText, percent, scaled, threshold } from './lms-calls.js';
import { createInteractionWriter } from './interaction-writer.js';

export const API_NAME = 'API_1484_11';

// timeinterval (second,10,2): an ISO 8601 duration.
export const duration = (seconds) => `PT${Math.max(0, Math.round(seconds * 100)) / 100}S`;

// A session with the LMS, or null when it refuses Initialize.
export function connectScorm2004(api) {
  if (!succeeded(api.Initialize(''))) return null;
  const get = (element) => valueText(api.GetValue(element), element);
  // Every write's answer counts: one refused ("false") leaves the report unsaved.
  let saved = true;
  const set = (element, value) => {
    saved = succeeded(api.SetValue(element, String(value))) && saved;
  };
  // The answers' records (interactions.js), one new index each from _count on.
  const interactions = createInteractionWriter({
    version: '2004', count: () => get('cmi.interactions._count'), write: (element, value) => succeeded(api.SetValue(element, value)),
  });
  return Object.freeze({
    version: '2004',
    // The longest cmi.suspend_data 2004 holds (characterstring, SPM 64000).
    suspendDataLimit: 64000,
    // Empty on a first launch (the LMS may also report error 403, not initialised: the same).
    suspendData: () => get('cmi.suspend_data'),
    // The manifest's minNormalizedMeasure, or the LMS's own: a scaled score in [-1, 1].
    mastery: () => threshold(get('cmi.scaled_passing_score'), 1),
    // The answers and what they add up to, committed at once; true when
    // the LMS took every value and the commit (the answers' records,
    // `interactions`, aside: an LMS may keep none, and the learner's answers are saved without them).
    report({ suspendData, outcome, interactions: records = [] }) {
      saved = true;
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
      interactions.write(records);
      saved = succeeded(api.Commit('')) && saved;
      return saved;
    },
    finish(seconds) {
      set('cmi.session_time', duration(seconds));
      set('cmi.exit', 'suspend');
      api.Commit('');
      api.Terminate('');
    },
  });
}
