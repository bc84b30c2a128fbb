// Finds the LMS's API object as SCORM's run-time environment specifies: in
// the window's chain of parents, then in its opener's (an LMS that opens the
// content in a new window). `name` is 'API' for SCORM 1.2 and 'API_1484_11'
// for SCORM 2004. A parent of another origin (an LMS that serves content
// from elsewhere, a page opened from file://) throws on access: it has no
// API for us, and the search goes on to the opener.

// ADL's own samples stop after 500 parents: a chain that long is a loop, not an LMS.
export const MAX_PARENTS = 500;

function apiOf(win, name) {
  try {
    const api = win?.[name];
    return api && typeof api === 'object' ? api : null;
  } catch {
    return null; // a window of another origin
  }
}

function parentOf(win) {
  try {
    const parent = win.parent;
    return parent && parent !== win ? parent : null;
  } catch {
    return null;
  }
}

// The API in `start` or one of its parents (at most MAX_PARENTS up), or null.
function searchUp(start, name) {
  let win = start;
  for (let steps = 0; win && steps <= MAX_PARENTS; steps += 1) {
    const api = apiOf(win, name);
    if (api) return api;
    win = parentOf(win);
  }
  return null;
}

function openerOf(win) {
  try {
    return win.opener ?? null;
  } catch {
    return null;
  }
}

// `win`: the content's window. The API object, or null when there is no LMS.
export function findApi(win, name) {
  const found = searchUp(win, name);
  if (found) return found;
  // The opener of this window, or of the top of its chain (content in a frame of a pop-up).
  let top = win;
  for (let parent = parentOf(top), steps = 0; parent && steps < MAX_PARENTS; parent = parentOf(parent), steps += 1) top = parent;
  for (const opener of new Set([openerOf(win), openerOf(top)])) {
    const api = opener ? searchUp(opener, name) : null;
    if (api) return api;
  }
  return null;
}
