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
