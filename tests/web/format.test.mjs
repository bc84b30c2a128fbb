// Number formatting of the read-outs and formulas (web/src/format.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber, texNumber } from '../../web/src/format.js';

test('numbers show up to four decimals, trailing zeros dropped, with a true minus sign', () => {
  assert.equal(formatNumber(1.23456), '1.2346');
  assert.equal(formatNumber(2), '2');
  assert.equal(formatNumber(0.5), '0.5');
  assert.equal(formatNumber(-0.5), '−0.5');
  assert.equal(formatNumber(-0.00001), '0', 'no minus sign on what rounds to zero');
});

test('another specifier is its own format', () => {
  assert.equal(formatNumber(0.123456, '.6~g'), '0.123456');
  assert.equal(formatNumber(1234.5678, '.2f'), '1234.57');
  assert.equal(formatNumber(1234.5678), '1234.5678', 'the default is unchanged by the other specifiers');
});

test('what is not a finite number shows as a dash', () => {
  for (const value of [NaN, Infinity, -Infinity, undefined, null, '3']) assert.equal(formatNumber(value), '—', String(value));
});

test('TeX numbers use an ASCII minus, and NaN as text', () => {
  assert.equal(texNumber(-1.23456), '-1.235');
  assert.equal(texNumber(-2, '.2f'), '-2.00');
  assert.equal(texNumber(0.1), '0.1');
  assert.equal(texNumber(NaN), '\\text{NaN}');
  assert.equal(texNumber(-Infinity), '\\text{NaN}');
});

test('beyond a million a fixed-point number is written m × 10ⁿ, so it fits its card; a grouped count keeps its digits', () => {
  // A diverged loss: JavaScript writes it "2.3957706803474097e+42", d3 digit by digit below 1e21.
  assert.equal(formatNumber(2.3957706803474097e+42, '.4~f'), '2.3958 × 10⁴²');
  assert.equal(formatNumber(-15000000, '.3f'), '−1.5 × 10⁷');
  assert.equal(formatNumber(123456789.123), '1.2346 × 10⁸');
  assert.equal(formatNumber(999999.5, '.1f'), '999999.5', 'below a million, as before');
  assert.equal(formatNumber(15000000, ',.0f'), '15,000,000');
  assert.equal(texNumber(2.3957706803474097e+42), '2.3958 \\times 10^{42}');
  assert.equal(texNumber(-1.5e7), '-1.5 \\times 10^{7}');
  for (const value of [2.3957706803474097e+42, -1.5e7, 1e21, 4.2e300]) {
    assert.ok(formatNumber(value, '.4~f').length <= 14, `${value}: ${formatNumber(value, '.4~f')}`);
  }
});
