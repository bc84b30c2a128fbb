// Figures as CSV: a table is { header, rows }, made from a figure's own data
// (never read back from the screen), so numbers keep their full precision.

function csvCell(value) {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  const text = String(value ?? '');
  // Quote text that would split a row or start a formula in a spreadsheet.
  return /[",\n\r]|^[=+\-@\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// CRLF line ends: what RFC 4180 and spreadsheets expect.
export function toCsv({ header, rows }) {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

// A line plot's layers as a table: for one layer with `columns`, plain
// columns (e.g. the data set's x, y); otherwise series, x, y per point.
export function plotTable(specs, csv = {}) {
  const layers = [...specs.entries()].filter(([name, spec]) =>
    spec && spec.xs && spec.ys && (!csv.layers || csv.layers.includes(name)));
  if (csv.columns && layers.length === 1) {
    const [, spec] = layers[0];
    return { header: csv.columns, rows: Array.from(spec.xs, (x, i) => [x, spec.ys[i]]) };
  }
  const rows = [];
  for (const [name, spec] of layers) {
    for (let i = 0; i < spec.xs.length; i += 1) rows.push([name, spec.xs[i], spec.ys[i]]);
  }
  return { header: ['series', 'x', 'y'], rows };
}

// A heatmap's matrix as a table: the corner names both axes, the first row
// holds the column values (or indexes), each row starts with its value.
export function matrixTable({ values, rows, cols, rowValues, colValues }, { xLabel = 'column', yLabel = 'row' } = {}) {
  const colHeads = Array.from({ length: cols }, (_, j) => (colValues ? colValues[j] : j));
  const body = [];
  for (let i = 0; i < rows; i += 1) {
    const row = [rowValues ? rowValues[i] : i];
    for (let j = 0; j < cols; j += 1) row.push(values[i * cols + j]);
    body.push(row);
  }
  return { header: [`${yLabel} \\ ${xLabel}`, ...colHeads], rows: body };
}
