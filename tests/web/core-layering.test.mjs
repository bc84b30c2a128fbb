// The core's layering (core/CMakeLists.txt, one folder a role), checked on
// the sources with no build:
//
// 1. Includes go down the layers. numerics/ is the bottom (it may read the
//    contract's limits and errors); regression/ and scoring/ are the page's
//    forward-only parts over them. None of the three includes a model:
//    encoder/, seq2seq/, training/, inspection/, or the files of layers/ that
//    hold or assemble a model (a block, the parameter layout, a model's
//    workspace). scoring/ may call a single layer's forward (its checked
//    multi-head, additive and dot-product attention are the layers' behind
//    checks).
//    Only inspection/, the folder that reads trained models apart, sits above
//    both kinds of model; nothing else includes it.
//
// 2. Every softmax goes through numerics/softmax_row.hpp. A softmax loop,
//    checkably: one function (outside softmax_row.hpp) whose body takes a
//    maximum (max, max_element, row_maximum), calls an exponential (exp,
//    exp2, exp_nonpositive, exp2_nonpositive, table_exp2*; std::, portable::
//    or vector_math:: alike) and sums (a `+=` or a call to sum() or total()).
//    The max-shift, the exponentials and their sum are the softmax's
//    signature; the normalisation itself may sit in a caller (pooling's
//    robust Gaussian row returned its sum to be divided by), so it is not
//    required. Comments and strings are removed first. The numerics' own
//    building blocks (vector_math.hpp, table_exp2.hpp, wasm_simd.hpp,
//    portable_math) are the exponentials themselves and are not checked.
//    Known blind spot, on purpose: a row shifted by a minimum distance
//    instead of a maximum score (pooling's fast Gaussian rows, which shift by
//    min d^2 from the sorted keys and use the table exp2) is not a
//    max-shift and is not flagged.
//
// 3. One implementation of each layer's formula. A formula of layers/ is a
//    function `<name>_forward` defined there; a function of scoring/ named
//    `<name>` (or `checked_<name>`, `<name>_forward`; `dot_product_attention`
//    for `scaled_dot_product`) is the page's entry to it, and must be a
//    wrapper: it calls
//    `<name>_forward`, and its file computes no attention step itself (a
//    softmax, a tanh, a projection, a batched product, scores). Any other is
//    a second implementation of the formula, and fails the test: the page's
//    checks go in front of the models' layer, not beside a copy of it
//    (docs/architecture.md, "The page's forward-only attention").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const CORE = 'core';

async function sourceFiles(folder) {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(hpp|cpp|h)$/.test(entry.name) ? [file] : [];
  }));
  return nested.flat();
}

// --- 1. includes -----------------------------------------------------------

// A quoted include as a path under core/: "folder/file.hpp" as it is, a bare
// "file.hpp" beside the including file.
export function includesOf(file, source) {
  const folder = path.relative(CORE, path.dirname(file));
  return [...source.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)].map(([, name]) =>
    (name.includes('/') ? name : path.join(folder, name)));
}

// Files of layers/ that hold or assemble a model, not a single layer.
const LAYER_MODEL_FILES = /^layers\/(encoder_block|decoder_block|parameter_layout|workspace)\.hpp$/;
const MODEL_FOLDERS = /^(encoder|seq2seq|training|inspection)\//;

// The folders each checked folder may include from (its own always).
const ALLOWED = {
  numerics: ['numerics', 'contract'],
  regression: ['numerics', 'contract', 'regression'],
  scoring: ['numerics', 'contract', 'scoring', 'layers'],
};

// Every include that breaks the layering, as "file -> include: why".
export function layeringBreaks(files) {
  const breaks = [];
  for (const [file, source] of files) {
    const folder = path.relative(CORE, file).split(path.sep)[0];
    for (const include of includesOf(file, source)) {
      const target = include.split('/')[0];
      if (target === 'inspection' && folder !== 'inspection') {
        breaks.push(`${file} -> ${include}: only inspection/ reads models apart; nothing below includes it`);
      }
      if (!(folder in ALLOWED)) continue;
      if (MODEL_FOLDERS.test(include) || LAYER_MODEL_FILES.test(include)) {
        breaks.push(`${file} -> ${include}: ${folder}/ includes a model`);
      } else if (!ALLOWED[folder].includes(target)) {
        breaks.push(`${file} -> ${include}: ${folder}/ may include only ${ALLOWED[folder].join(', ')}`);
      }
    }
  }
  return breaks;
}

// --- 2. softmax loops ------------------------------------------------------

// The source with comments, string and character literals blanked (kept the
// same length, newlines kept, so offsets still give line numbers).
export function codeOnly(source) {
  return source.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
    (match) => match.replace(/[^\n]/g, ' '));
}

// The function bodies of a file: the outermost brace blocks that are not a
// namespace, class, struct, union or enum (those are walked into), with the
// function's name (the identifier before its parameter list) and first line.
export function functionBodies(code) {
  const bodies = [];
  let headerStart = 0;
  for (let i = 0; i < code.length; ++i) {
    const c = code[i];
    if (c === ';' || c === '}') headerStart = i + 1;
    if (c !== '{') continue;
    const header = code.slice(headerStart, i);
    if (/\b(namespace|class|struct|union|enum)\b[^()]*$/.test(header) || /extern\s*$/.test(header)) {
      headerStart = i + 1;
      continue;
    }
    let depth = 0;
    let end = i;
    for (; end < code.length; ++end) {
      if (code[end] === '{') ++depth;
      else if (code[end] === '}' && --depth === 0) break;
    }
    const name = (header.match(/([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)[^()]*$/) ?? [])[1] ?? '(block)';
    bodies.push({ name, line: code.slice(0, i).split('\n').length, body: code.slice(i, end + 1) });
    i = end;
    headerStart = end + 1;
  }
  return bodies;
}

const TAKES_MAXIMUM = /\b(?:max|max_element|row_maximum)\s*\(/;
const EXPONENTIAL = /\b(?:exp|exp2|exp_nonpositive|exp2_nonpositive|table_exp2\w*)\s*(?:<[^<>()]*>)?\s*\(/;
const SUMS = /\+=|\b(?:sum|total)\s*\(/;

// Files whose functions are the exponentials and the softmax themselves.
const SOFTMAX_KERNEL = 'core/numerics/softmax_row.hpp';
const EXPONENTIAL_BLOCKS = /^core\/numerics\/(vector_math\.hpp|table_exp2\.hpp|wasm_simd\.hpp|portable_math\.(hpp|cpp))$/;

// Every softmax loop outside softmax_row.hpp, as "file:line name()".
export function softmaxLoops(files) {
  const found = [];
  for (const [file, source] of files) {
    const where = file.split(path.sep).join('/');
    if (where === SOFTMAX_KERNEL || EXPONENTIAL_BLOCKS.test(where)) continue;
    for (const { name, line, body } of functionBodies(codeOnly(source))) {
      if (TAKES_MAXIMUM.test(body) && EXPONENTIAL.test(body) && SUMS.test(body)) found.push(`${where}:${line} ${name}()`);
    }
  }
  return found;
}

// --- 3. one implementation of each formula ----------------------------------

// Calls that compute attention rather than check or pass it on.
const ATTENTION_STEPS = /\b(?:masked_softmax|softmax_row|tanh|linear_forward|batch_matrix_product\w*|scaled_dot_scores|matrix::multiply\w*)\s*\(/;

// A function's formula: its name without checked_ or _forward.
const formulaOf = (name) => name.replace(/^checked_/, '').replace(/_forward$/, '');

// The page's functions named otherwise than the layer's formula they compute:
// the page's dot_product_attention is the heads' scaled_dot_product_forward.
const PAGE_NAMES = new Map([['dot_product_attention', 'scaled_dot_product']]);
const pageFormulaOf = (name) => PAGE_NAMES.get(formulaOf(name)) ?? formulaOf(name);

// The page's functions that implement a layer's formula again, as
// "formula: layers file <- scoring file:line name() (why)".
export function secondImplementations(files) {
  const formulas = new Map();  // name -> the layers/ file defining name_forward
  const bodies = [];
  for (const [file, source] of files) {
    const where = file.split(path.sep).join('/');
    const code = codeOnly(source);
    for (const fn of functionBodies(code)) {
      if (where.startsWith('core/layers/') && fn.name.endsWith('_forward')) {
        formulas.set(formulaOf(fn.name), where);
      }
      if (where.startsWith('core/scoring/')) bodies.push({ where, code, ...fn });
    }
  }
  const found = [];
  for (const { where, code, name: defined, line, body } of bodies) {
    const name = pageFormulaOf(defined);
    if (!formulas.has(name)) continue;
    const calls = new RegExp(`\\b${name}_forward\\s*\\(`).test(body);
    const step = code.match(ATTENTION_STEPS);
    if (calls && !step) continue;
    const why = calls ? `its file computes ${step[0].replace(/\s*\($/, '')}()` : `does not call ${name}_forward()`;
    found.push(`${name}: ${formulas.get(name)} <- ${where}:${line} ${defined}() (${why})`);
  }
  return found;
}

async function coreSources() {
  const files = await sourceFiles(CORE);
  return Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')]));
}

test('the checks find what they look for in planted sources', () => {
  const planted = [
    ['core/scoring/planted.cpp', '#include "seq2seq/model.hpp"\n#include "layers/linear.hpp"\n'],
    ['core/regression/planted.cpp', '#include "layers/encoder_block.hpp"\n#include "scoring/masking.hpp"\n'],
    ['core/numerics/planted.hpp', '#include "inspection/alignment.hpp"\n'],
    ['core/layers/planted.cpp', '#include "inspection/attention_row_steps.hpp"\n#include "seq2seq/model.hpp"\n'],
    ['core/seq2seq/planted.cpp', '#include "model.hpp"\n'],
  ];
  assert.deepEqual(layeringBreaks(planted), [
    'core/scoring/planted.cpp -> seq2seq/model.hpp: scoring/ includes a model',
    'core/regression/planted.cpp -> layers/encoder_block.hpp: regression/ includes a model',
    'core/regression/planted.cpp -> scoring/masking.hpp: regression/ may include only numerics, contract, regression',
    'core/numerics/planted.hpp -> inspection/alignment.hpp: only inspection/ reads models apart; nothing below includes it',
    'core/numerics/planted.hpp -> inspection/alignment.hpp: numerics/ includes a model',
    'core/layers/planted.cpp -> inspection/attention_row_steps.hpp: only inspection/ reads models apart; nothing below includes it',
  ]);

  // The two loops this check was written against, as they stood.
  const rowSteps = `
namespace attention {
namespace {
void mask_softmax_and_sum(AttentionRowSteps& steps, std::size_t seen) {
    const double top = *std::max_element(steps.masked_scores.begin(), steps.masked_scores.end());
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        steps.weights(j) = vector_math::exp_nonpositive(steps.masked_scores(j) - top);
        sum += steps.weights(j);
    }
    for (std::size_t j = 0; j < n; ++j) steps.weights(j) /= sum;
}
}  // namespace
}  // namespace attention
`;
  const robustRow = `
namespace attention {
struct RowShift { double min_d2, max_d2; };
double gaussian_row_robust(double query, const double* keys, std::size_t n, double w, double* row) noexcept {
    double max_score = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) max_score = std::max(max_score, row[j]);
    for (std::size_t j = 0; j < n; ++j) row[j] = vm::exp_nonpositive(row[j] - max_score);
    return vm::sum(row, n);
}
}
`;
  // Not softmaxes: an exp with no max-shift and no sum, a max in a comment.
  const innocent = `
// a softmax: max, exp( and sum( in a comment
double bleu(double a) { double score = portable::exp(std::min(0.0, a)); score *= 2.0; return score; }
double tidy(const double* row, std::size_t n) { return std::max(row[0], row[1]) + vm::sum(row, n); }
void through_kernel(double* row, std::size_t n) { softmax_row(row, n, n); }
`;
  assert.deepEqual(softmaxLoops([
    ['core/scoring/attention_row_steps.cpp', rowSteps],
    ['core/regression/pooling.cpp', robustRow],
    ['core/seq2seq/bleu.cpp', innocent],
    ['core/numerics/softmax_row.hpp', rowSteps],
  ]), [
    'core/scoring/attention_row_steps.cpp:4 mask_softmax_and_sum()',
    'core/regression/pooling.cpp:4 gaussian_row_robust()',
  ]);
});

test('the function walk sees the functions of the real sources', async () => {
  const files = new Map(await coreSources());
  const names = functionBodies(codeOnly(files.get(path.join(CORE, 'numerics', 'softmax_row.hpp')))).map((f) => f.name);
  assert.deepEqual(names, ['row_maximum', 'exponentials_and_sum', 'exponentials_and_sum', 'softmax_row']);
  const pooling = functionBodies(codeOnly(files.get(path.join(CORE, 'regression', 'pooling.cpp')))).map((f) => f.name);
  for (const name of ['check_points', 'row_shift', 'gaussian_row_robust', 'attention_weights', 'nadaraya_watson']) {
    assert.ok(pooling.includes(name), `${name} among ${pooling.join(', ')}`);
  }
});

test('numerics/, regression/ and scoring/ include no model, and only inspection/ reads models apart', async () => {
  assert.deepEqual(layeringBreaks(await coreSources()), []);
});

test('every softmax of the core goes through numerics/softmax_row.hpp', async () => {
  assert.deepEqual(softmaxLoops(await coreSources()), []);
});

test('a second implementation of a layer\'s formula in scoring/ is found', () => {
  const layer = ['core/layers/additive_attention.cpp', `
namespace attention::layers {
void additive_keys_forward(const AdditiveShape& shape, const double* keys) { linear_forward(shape, keys); }
void additive_attention_forward(const AdditiveShape& shape, const double* queries) { softmax_row(w, n, n); }
}
`];
  // The page's function as it stood before it called the layer.
  const own = ['core/scoring/checked_additive_attention.cpp', `
namespace attention {
AttentionResult additive_attention(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 1>& w_v) {
    const auto projected_q = layers::linear_forward(queries, w_q);
    for (std::size_t c = 0; c < h; ++c) score += w_v(c) * std::tanh(projected_q(b, q, c) + projected_k(b, k, c));
    result.weights = masked_softmax(scores, valid_lens);
    return result;
}
}
`];
  // A wrapper that also computes in its file, and a thin one.
  const mixed = ['core/scoring/checked_additive_attention.cpp', `
AttentionResult additive_attention(const Tensor& q) {
    layers::additive_attention_forward(shape, q.data());
    result.weights = masked_softmax(scores, valid_lens);
}
`];
  const thin = ['core/scoring/checked_additive_attention.cpp', `
AttentionResult additive_attention(const Tensor& q) {
    check_additive_shape(q); // masked_softmax( in a comment
    layers::additive_attention_forward(shape, q.data(), "tanh(");
    return result;
}
`];
  // Not the page's entry to a layer: another name.
  const other = ['core/scoring/scaling_study.cpp', `
ScalingStudy scaling_study(const Tensor& q) { return masked_softmax(q, lens); }
`];
  const found = secondImplementations([layer, own, other]);
  assert.deepEqual(found, [
    'additive_attention: core/layers/additive_attention.cpp <- core/scoring/checked_additive_attention.cpp:3 ' +
      'additive_attention() (does not call additive_attention_forward())',
  ]);
  assert.deepEqual(secondImplementations([layer, mixed]), [
    'additive_attention: core/layers/additive_attention.cpp <- core/scoring/checked_additive_attention.cpp:2 ' +
      'additive_attention() (its file computes masked_softmax())',
  ]);
  assert.deepEqual(secondImplementations([layer, thin, other]), []);
  // Named as the layer's own function, or as the page's file is.
  const renamed = (name) => [own[0], own[1].replace('additive_attention(', `${name}(`)];
  for (const name of ['additive_attention_forward', 'checked_additive_attention']) {
    assert.deepEqual(secondImplementations([layer, renamed(name)]).length, 1, name);
  }

  // The page's dot-product attention, named otherwise than the heads' pass: as it
  // stood before it called the layer, and as a wrapper.
  const heads = ['core/layers/multi_head_attention.cpp', `
namespace attention::layers {
void scaled_dot_product_forward(const AttentionShape& shape, const double* q) { softmax_row(w, n, n); }
}
`];
  const ownDot = ['core/scoring/dot_product_attention.cpp', `
namespace attention {
namespace detail {
std::optional<BadScore> scaled_dot_scores(const Tensor& queries, const Tensor& keys, Tensor& scores) { return {}; }
}
AttentionResult dot_product_attention(const Tensor& queries, const Tensor& keys, const Tensor& values) {
    if (const auto bad = detail::scaled_dot_scores(queries, keys, scores)) fail("queries", "small");
    result.weights = masked_softmax(scores, valid_lens);
    result.output = batch_matrix_product_unchecked(result.weights, values);
    return result;
}
}
`];
  const thinDot = ['core/scoring/dot_product_attention.cpp', `
AttentionResult dot_product_attention(const Tensor& q) {
    check_dot_product_shape(q);
    layers::scaled_dot_product_forward(shape, q.data(), k.data(), v.data(), visible.data(), w, out, scratch);
    return result;
}
`];
  assert.deepEqual(secondImplementations([heads, ownDot]), [
    'scaled_dot_product: core/layers/multi_head_attention.cpp <- core/scoring/dot_product_attention.cpp:6 ' +
      'dot_product_attention() (does not call scaled_dot_product_forward())',
  ]);
  assert.deepEqual(secondImplementations([heads, thinDot]), []);
});

test('the page\'s multi-head, additive and dot-product attention are the layers\' forward passes behind their checks', async () => {
  const files = await coreSources();
  const wrappers = new Map();
  for (const [file, source] of files) {
    const where = file.split(path.sep).join('/');
    if (!where.startsWith('core/scoring/')) continue;
    for (const { name, body } of functionBodies(codeOnly(source))) wrappers.set(name, { where, body });
  }
  for (const name of ['multi_head_attention', 'additive_attention', 'dot_product_attention']) {
    assert.ok(wrappers.has(name), `scoring/ defines ${name}()`);
    const layer = pageFormulaOf(name);
    assert.match(wrappers.get(name).body, new RegExp(`\\b${layer}_forward\\s*\\(`), `${name}() calls the layer`);
  }
  assert.deepEqual(secondImplementations(files), []);
});
