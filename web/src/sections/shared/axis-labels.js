// A map's axis labels from the tokens (or words) at its positions: a token
// that comes more than once carries its position as a subscript (6₀ … 6₂),
// so that two rows or columns never share a label; padding past the valid
// length is '·'.
const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';
const subscript = (n) => String(n).replace(/\d/g, (digit) => SUBSCRIPT_DIGITS[digit]);

export function positionLabels(tokens, validLen, length = tokens.length) {
  const shown = Array.from({ length: Math.min(validLen, length) }, (_, p) => String(tokens[p]));
  const counts = new Map();
  for (const token of shown) counts.set(token, (counts.get(token) ?? 0) + 1);
  return Array.from({ length }, (_, p) => {
    if (p >= shown.length) return '·';
    return counts.get(shown[p]) > 1 ? `${shown[p]}${subscript(p)}` : shown[p];
  });
}
