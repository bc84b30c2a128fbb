// Number formatting for read-outs and formulas (d3-format: a true minus
// sign, no locale surprises). A value that is not finite shows as a dash.
import { format } from 'd3-format';

const cache = new Map();

export function formatNumber(value, specifier = '.4~f') {
  if (!Number.isFinite(value)) return '—';
  if (!cache.has(specifier)) cache.set(specifier, format(specifier));
  return cache.get(specifier)(value);
}

// For TeX: KaTeX wants an ASCII minus inside maths.
export function texNumber(value, specifier = '.3~f') {
  return Number.isFinite(value) ? formatNumber(value, specifier).replace('−', '-') : '\\text{NaN}';
}
