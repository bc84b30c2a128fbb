// How the package finds the LMS's API object (web/src/scorm/api-discovery.js),
// on chains of fake windows: up the parents, then the opener's chain; a
// window of another origin (which throws on access) is passed over; the
// search stops after MAX_PARENTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findApi, MAX_PARENTS } from '../../web/src/scorm/api-discovery.js';

// A window whose parent is `parent` (the top is its own parent, as in a browser).
function frame(parent = null, own = {}) {
  const win = { ...own, opener: null };
  win.parent = parent ?? win;
  return win;
}

// A window of another origin: reading anything of it throws, as a browser's does.
function foreign(parent = null) {
  const win = frame(parent);
  return new Proxy(win, {
    get(target, key) {
      if (key === 'parent') return target.parent;
      throw new DOMException('Blocked a frame with origin "http://content" from accessing a cross-origin frame.', 'SecurityError');
    },
  });
}

const api12 = { LMSInitialize: () => 'true' };
const api2004 = { Initialize: () => 'true' };

test('found in the window itself, in a parent, or several parents up, by its version\'s name', () => {
  const lms = frame(null, { API: api12, API_1484_11: api2004 });
  assert.equal(findApi(lms, 'API'), api12);
  const content = frame(frame(frame(lms)));
  assert.equal(findApi(content, 'API'), api12);
  assert.equal(findApi(content, 'API_1484_11'), api2004);
  assert.equal(findApi(frame(frame(null, { API: api12 })), 'API_1484_11'), null);
});

test('the nearest parent\'s API wins', () => {
  const nearer = { LMSInitialize: () => 'true' };
  const content = frame(frame(frame(null, { API: api12 }), { API: nearer }));
  assert.equal(findApi(content, 'API'), nearer);
});

test('no LMS: null, as for a page opened on its own', () => {
  assert.equal(findApi(frame(), 'API'), null);
  assert.equal(findApi(frame(frame()), 'API_1484_11'), null);
  assert.equal(findApi(frame(null, { API: 'not an object' }), 'API'), null);
});

test('a parent of another origin is passed over without an exception', () => {
  assert.equal(findApi(frame(foreign()), 'API'), null);
  // A foreign frame between the content and the LMS: its parent can still be read (browsers allow that).
  const content = frame(foreign(frame(null, { API: api12 })));
  assert.equal(findApi(content, 'API'), api12);
});

test('then the opener, and the opener of the top window, and their parents', () => {
  const lms = frame(null, { API_1484_11: api2004 });
  const popup = frame();
  popup.opener = frame(lms);
  assert.equal(findApi(popup, 'API_1484_11'), api2004);
  const inPopup = frame(frame());
  inPopup.parent.opener = lms;
  assert.equal(findApi(inPopup, 'API_1484_11'), api2004);
});

test(`the search up stops after ${MAX_PARENTS} parents`, () => {
  let win = frame(null, { API: api12 });
  for (let depth = 0; depth < MAX_PARENTS; depth += 1) win = frame(win);
  assert.equal(findApi(win, 'API'), api12);
  assert.equal(findApi(frame(win), 'API'), null);
});
