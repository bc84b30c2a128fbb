// What every "Copy as PyTorch" snippet is written with: Python literals of
// the lab's numbers (shortest round-trip decimals, which Python reads back as
// the same doubles), tensors of a shape, comments in the page's language
// (catalogue keys pytorch.*), the state line, the opening every attention
// snippet shares, and the section's computation run again with the core's
// calls recorded. These modules only write text.
import { t } from '../../i18n/index.js';
import { parameters } from '../../state.js';

// Python reads JS's shortest round-trip decimal back as the same double.
export const py = (value) => {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Number.isNaN(value)) return "float('nan')";
  const text = String(value);
  return Number.isInteger(value) && !text.includes('e') ? `${text}.0` : text;
};

export function tensorLiteral(name, values) {
  return `${name} = ${tensorExpression(values)}`;
}

export function tensorExpression(values) {
  const items = Array.from(values, (value) => String(value));
  const lines = [];
  let line = '';
  for (const item of items) {
    if (line.length + item.length + 2 > 96) {
      lines.push(line);
      line = '';
    }
    line += `${item}, `;
  }
  if (line) lines.push(line);
  return `torch.tensor([\n${lines.map((text) => `    ${text.trimEnd()}`).join('\n')}\n])`;
}

export const comment = (key, params) => t(key, params).split('\n').map((line) => `# ${line}`).join('\n');

export function stateLine(state, names) {
  return names.filter((name) => !parameters[name]?.view).map((name) => `${name}=${state[name]}`).join(', ');
}

// The section's computation run again with the core's calls of `names`
// recorded: { result, calls: { name: [argument, ...] } }, each argument the
// inputs as the core got them (the memoized core answers the repeat from its
// cache). A snippet then writes out the very inputs the page's numbers come from.
export function recordedCompute(section, state, core, names) {
  const calls = Object.fromEntries(names.map((name) => [name, []]));
  // The core object is frozen: the recorder is a new object on top of it.
  const recording = Object.create(core, Object.fromEntries(names.map((name) => [name, {
    value: (argument, ...rest) => {
      calls[name].push(argument);
      return core[name](argument, ...rest);
    },
  }])));
  return { result: section.compute(recording, state), calls };
}

// A flat row-major array as a torch tensor of the given shape.
export const shapedExpression = (values, shape) =>
  `${tensorExpression(Array.from(values, py))}.reshape(${shape.join(', ')})`;
export const shapedLiteral = (name, values, shape) => `${name} = ${shapedExpression(values, shape)}`;

// A Python line printing a tensor's numbers as a JSON list (repr: every digit).
export const printValues = (label, expression) =>
  `print('${label}:', '[' + ', '.join(repr(float(v)) for v in ${expression}.reshape(-1)) + ']')`;

// The opening every attention snippet shares: header (with the book's
// chapter the code is from), state, imports, float64.
export function snippetOpening(state, section, chapter) {
  return [
    comment('pytorch.attentionHeader', { section: t(`nav.${section.id}`), chapter }),
    comment('pytorch.state', { state: stateLine(state, section.inputs) }),
    'import math\n\nimport torch\nfrom torch import nn\n',
    `torch.set_default_dtype(torch.float64)  # ${t('pytorch.double')}\n`,
  ];
}
