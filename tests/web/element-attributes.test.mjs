// The <attention-lab> element's attribute names (web/src/element-attributes.js):
// one documented spelling per parameter (kebab case), the lower-cased name as
// an alias, and the documented one winning over the alias, whatever their
// order, with a warning that names both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parameters } from '../../web/src/state.js';
import {
  SPELLINGS, ATTRIBUTE_PARAMETERS, attributeOf, parameterAttributes, conflictWarning,
} from '../../web/src/element-attributes.js';

// getAttribute over [name, value] pairs, as HTML lower-cases names.
const attributes = (pairs) => {
  const map = new Map(pairs.map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => (map.has(name) ? map.get(name) : null);
};

test('every parameter has one documented attribute, and camel-case names one alias', () => {
  assert.equal(SPELLINGS.size, Object.keys(parameters).length);
  assert.deepEqual(SPELLINGS.get('leaveOneOut'), { documented: 'leave-one-out', alias: 'leaveoneout' });
  assert.deepEqual(SPELLINGS.get('mhaHeads'), { documented: 'mha-heads', alias: 'mhaheads' });
  assert.deepEqual(SPELLINGS.get('n'), { documented: 'n', alias: null });
  for (const [attribute, parameter] of ATTRIBUTE_PARAMETERS) {
    assert.equal(attribute, attribute.toLowerCase(), `${attribute}: as HTML spells it`);
    assert.ok(Object.hasOwn(parameters, parameter));
  }
  // No attribute names two parameters.
  const named = [...SPELLINGS.values()].flatMap(({ documented, alias }) => (alias ? [documented, alias] : [documented]));
  assert.equal(new Set(named).size, named.length);
});

test('given both spellings, the documented one wins whatever the order, and the conflict is reported', () => {
  for (const pairs of [
    [['leave-one-out', 'false'], ['leaveoneout', 'true']],
    [['leaveoneout', 'true'], ['leave-one-out', 'false']],
    [['leaveOneOut', 'true'], ['leave-one-out', 'false']],
  ]) {
    const read = attributes(pairs);
    const { values, conflicts } = parameterAttributes(read);
    assert.deepEqual(values, { leaveOneOut: 'false' }, JSON.stringify(pairs));
    assert.deepEqual(conflicts, [{ parameter: 'leaveOneOut', documented: 'leave-one-out', alias: 'leaveoneout' }]);
    const warning = conflictWarning(conflicts[0], read);
    assert.match(warning, /leave-one-out="false"/);
    assert.match(warning, /leaveoneout="true"/);
    assert.match(warning, /leave-one-out is used/);
  }
});

test('one spelling alone gives the value; none, no value; each parameter once', () => {
  assert.deepEqual(attributeOf('leaveOneOut', attributes([['leaveoneout', 'false']])),
    { attribute: 'leaveoneout', value: 'false', conflict: null });
  assert.deepEqual(attributeOf('leaveOneOut', attributes([])), { attribute: null, value: null, conflict: null });
  const { values, conflicts } = parameterAttributes(attributes([['n', '80'], ['kernel', 'boxcar'], ['mha-heads', '4'], ['section', 'data']]));
  assert.deepEqual(values, { n: '80', kernel: 'boxcar', mhaHeads: '4' });
  assert.deepEqual(conflicts, []);
});
