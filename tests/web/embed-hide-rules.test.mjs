// The `hide` list of the iframe mode and the element as CSS rules
// (hideRules in web/src/embed.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hideRules } from '../../web/src/embed.js';

test('parameters and button actions are hidden by their data attribute', () => {
  assert.deepEqual(hideRules(['seed', 'new-sample']), [
    '[data-param="seed"], [data-action="seed"] { display: none !important; }',
    '[data-param="new-sample"], [data-action="new-sample"] { display: none !important; }',
  ]);
});

test('controls, export and text hide whole parts', () => {
  assert.deepEqual(hideRules(['controls']), [
    '.controls-panel { display: none !important; }',
    '.section-body { grid-template-columns: minmax(0, 1fr) !important; }',
  ]);
  assert.deepEqual(hideRules(['export']), ['.figure-export, .section-tools { display: none !important; }']);
  assert.deepEqual(hideRules(['text']), ['.prose { display: none !important; }']);
  assert.deepEqual(hideRules(['numbers']), ['.section-number { display: none !important; }']);
});

test('a token that could break out of the selector gives no rule', () => {
  const hostile = ['"], * { display: none } [x="', 'a"b', '1seed', '', '-x', 'se ed', 'x{}', 'kernel\\'];
  assert.deepEqual(hideRules(hostile), []);
  assert.equal(hideRules(['kernel', '"]*{}', 'w']).length, 2, 'the good tokens around it still count');
  assert.deepEqual(hideRules([]), []);
});
