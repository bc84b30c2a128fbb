// Number formatting for read-outs and formulas (d3-format: a true minus
// sign, no locale surprises). A value that is not finite shows as a dash.
import { format, formatSpecifier } from 'd3-format';

const cache = new Map();

// Beyond a million, a fixed-point number (a diverged loss: 2.3957706e+42)
// would be written digit by digit, or as JavaScript's "e+42", and spill out
// of its card: it is written m × 10ⁿ instead, with five significant digits.
// A grouped count (",.0f") keeps its digits.
export const COMPACT_FROM = 1e6;
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const scientific = format('.4~e');

// The mantissa (as the page writes numbers) and the power of ten of a
// value written compactly, or null when `specifier` writes it in full.
function compactParts(value, specifier) {
  if (Math.abs(value) < COMPACT_FROM) return null;
  const { type, comma } = formatSpecifier(specifier);
  if (type !== 'f' || comma) return null;
  const [mantissa, exponent] = scientific(value).split('e');
  return { mantissa, power: String(Number(exponent)) };
}

export function formatNumber(value, specifier = '.4~f') {
  if (!Number.isFinite(value)) return '—';
  const compact = compactParts(value, specifier);
  if (compact) return `${compact.mantissa} × 10${[...compact.power].map((digit) => SUPERSCRIPT[digit]).join('')}`;
  if (!cache.has(specifier)) cache.set(specifier, format(specifier));
  return cache.get(specifier)(value);
}

// For TeX: KaTeX wants an ASCII minus inside maths.
export function texNumber(value, specifier = '.3~f') {
  if (!Number.isFinite(value)) return '\\text{NaN}';
  const compact = compactParts(value, specifier);
  if (compact) return `${compact.mantissa.replace('−', '-')} \\times 10^{${compact.power}}`;
  return formatNumber(value, specifier).replace('−', '-');
}
