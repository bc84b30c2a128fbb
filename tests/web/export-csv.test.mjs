// Figures as CSV (web/src/export/csv.js): quoting that keeps a spreadsheet
// from splitting a cell or running a formula, numbers in full precision,
// and the tables of a line plot and of a heatmap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv, plotTable, matrixTable } from '../../web/src/export/csv.js';

test('a table becomes CRLF lines, numbers in full precision', () => {
  assert.equal(toCsv({ header: ['x', 'y'], rows: [[0.1 + 0.2, -1e-300], [NaN, Infinity]] }),
    'x,y\r\n0.30000000000000004,-1e-300\r\nNaN,Infinity\r\n');
  assert.equal(toCsv({ header: ['only'], rows: [] }), 'only\r\n');
});

test('text that would split a cell or start a formula is quoted', () => {
  const row = ['a,b', 'say "hi"', 'two\nlines', 'cr\rhere', '=SUM(A1)', '+1', '-1', '@cmd', '\tTab', 'plain', '中文'];
  assert.equal(toCsv({ header: ['h'], rows: [row] }).split('\r\n')[1],
    '"a,b","say ""hi""","two\nlines","cr\rhere","=SUM(A1)","+1","-1","@cmd","\tTab",plain,中文');
  assert.equal(toCsv({ header: [null, undefined, ''], rows: [] }), ',,\r\n', 'missing text is an empty cell');
  assert.equal(toCsv({ header: [-1], rows: [] }), '-1\r\n', 'a negative number is a number, not a formula');
});

test('a plot of one layer with named columns gives those columns', () => {
  const specs = new Map([['points', { xs: new Float64Array([1, 2]), ys: new Float64Array([3, 4]) }], ['truth', null]]);
  assert.deepEqual(plotTable(specs, { columns: ['x', 'y'] }), { header: ['x', 'y'], rows: [[1, 3], [2, 4]] });
});

test('a plot of several layers gives series, x, y; csv.layers picks the layers', () => {
  const specs = new Map([
    ['truth', { xs: [0, 1], ys: [0, 2] }],
    ['prediction', { xs: [0.5], ys: [1.5] }],
    ['rule', { x: 2 }], // a vertical rule has no xs/ys: no data to write
  ]);
  assert.deepEqual(plotTable(specs), {
    header: ['series', 'x', 'y'],
    rows: [['truth', 0, 0], ['truth', 1, 2], ['prediction', 0.5, 1.5]],
  });
  assert.deepEqual(plotTable(specs, { layers: ['prediction'] }).rows, [['prediction', 0.5, 1.5]]);
  assert.deepEqual(plotTable(specs, { columns: ['x', 'y'] }).header, ['series', 'x', 'y'], 'columns only for a single layer');
});

test('a matrix: the corner names both axes, then column values, each row led by its value', () => {
  const values = Float64Array.from([1, 2, 3, 4, 5, 6]);
  assert.deepEqual(matrixTable({ values, rows: 2, cols: 3, rowValues: [0.1, 0.2], colValues: [10, 20, 30] },
    { xLabel: 'keys', yLabel: 'queries' }), {
    header: ['queries \\ keys', 10, 20, 30],
    rows: [[0.1, 1, 2, 3], [0.2, 4, 5, 6]],
  });
  assert.deepEqual(matrixTable({ values, rows: 3, cols: 2 }), {
    header: ['row \\ column', 0, 1],
    rows: [[0, 1, 2], [1, 3, 4], [2, 5, 6]],
  }, 'without values, indexes and generic names');
});
