// Hostile LMSs for the SCORM package's tests: npm scorm-again's run-times
// (what LMSs embed) behind a wrapper that misbehaves as some platforms do.
//   throwing: the call named throws (as an API whose back end failed does)
//   lying:    it hands back suspend_data the package never wrote, and keeps
//             SCORM 1.2's 4,096-character limit on cmi.suspend_data that
//             scorm-again relaxes (it answers "false" past it, stores nothing)
// Node imports this module (the ESM builds); the browser test passes
// `wrapApi`'s source into the host page (it uses nothing from outside).
import { Scorm12API } from 'scorm-again/scorm12';
import { Scorm2004API } from 'scorm-again/scorm2004';

export const SCORM12_SUSPEND_DATA_LIMIT = 4096;

// `api` wrapped in place. throws: the role whose call throws ('initialize',
// 'get', 'set', 'commit', or 'toString': GetValue answers an object whose
// toString throws), from its `after`-th call on; stored: the suspend_data
// GetValue answers (a string, or null for the API's own); strict: refuse
// 1.2 suspend_data past 4,096 characters.
export function wrapApi(api, version, { throws = null, after = 0, stored = null, strict = false } = {}) {
  const calls = {
    '1.2': { initialize: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit' },
    '2004': { initialize: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit' },
  }[version];
  const counts = { initialize: 0, get: 0, set: 0, commit: 0, toString: 0 };
  const refusals = [];
  for (const [role, name] of Object.entries(calls)) {
    const real = api[name].bind(api);
    api[name] = (...args) => {
      const nth = counts[role]++;
      if (throws === role && nth >= after) throw new Error(`${name} failed (a hostile LMS)`);
      if (role === 'get' && throws === 'toString' && counts.toString++ >= after) {
        return { toString() { throw new Error('toString failed (a hostile LMS)'); } };
      }
      if (role === 'get' && args[0] === 'cmi.suspend_data' && stored !== null) return stored;
      if (role === 'set' && strict && version === '1.2' && args[0] === 'cmi.suspend_data' && String(args[1]).length > 4096) {
        refusals.push(String(args[1]).length);
        return 'false';
      }
      return real(...args);
    };
  }
  api.hostile = { counts, refusals };
  return api;
}

// A fresh scorm-again API of the version, wrapped.
export function hostileLms(version, options) {
  return wrapApi(version === '1.2' ? new Scorm12API({ logLevel: 5 }) : new Scorm2004API({ logLevel: 5 }), version, options);
}

// What the LMS holds, as its cmi object.
export const lmsCmi = (api) => api.renderCMIToJSONObject().cmi;
