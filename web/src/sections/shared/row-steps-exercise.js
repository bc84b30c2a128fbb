// The exercise on a trained row taken apart (shared/row-steps-panel.js), in both
// sections that train a model: from the two largest scores of step ②, how
// many times the weight of the one is the other's. The belief it aims at:
// that the weights keep the scores' proportions (a score twice as large, a
// weight twice as large). The softmax's sum cancels in the ratio, which is
// e^(a − b): only the difference of the scores counts.
//
// The row is the one the panel shows (the section's view.rowSteps(): the
// core's steps for the model and row on screen); the right answer is the
// ratio of the core's two weights. Until the panel shows a row, check()
// throws a sentence the engine shows as "cannot be checked right now".
import { judgeNumber } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { topTwoKeys } from './row-steps-panel.js';

// Right within 1 % of the ratio: the scores are shown to three decimals,
// whose rounding moves e^(a − b) by at most 0.1 %.
export const RATIO_TOLERANCE = 0.01;

// What the exercise asks about the row on screen: its two keys and their
// scores, and the right ratio (the core's weights' own); null without a row.
export function ratioQuestion(view) {
  const row = view?.rowSteps?.() ?? null;
  if (!row) return null;
  const pair = topTwoKeys(row.steps);
  if (pair.length < 2) return { row, pair: null };
  const [a, b] = pair;
  const { scores, weights } = row.steps;
  const name = (j) => `${j} ${row.keyNames[j]}`;
  return { row, pair, a: name(a), b: name(b), scoreA: scores[a], scoreB: scores[b], right: weights[a] / weights[b], weightA: weights[a] };
}

// A recognised mistake: the answer within the tolerance of `value` (and not of the right ratio).
const near = (answer, value, right) => Number.isFinite(value)
  && Math.abs(answer - value) <= RATIO_TOLERANCE * Math.abs(value) && Math.abs(answer - right) > RATIO_TOLERANCE * right;

export const ROW_RATIO_EXERCISE = Object.freeze({
  id: 'row-weight-ratio',
  kind: 'compute',
  questionKey: 'steps.ex.ratio.question',
  hintKey: 'steps.ex.ratio.hint',
  check(core, inputs, answer, instance, view) {
    const asked = ratioQuestion(view);
    if (!asked) throw new Error(t('steps.ex.ratio.openFirst'));
    if (!asked.pair) throw new Error(t('steps.ex.ratio.oneKey'));
    // The ratio itself only for a right answer: a wrong or close one points
    // where to look, and the answer is shown when revealed.
    const params = {
      a: asked.a, b: asked.b, scoreA: formatNumber(asked.scoreA, '.3f'), scoreB: formatNumber(asked.scoreB, '.3f'),
      answer: formatNumber(answer, '.4~r'),
    };
    if (near(answer, asked.scoreA / asked.scoreB, asked.right)) return { verdict: 'wrong', key: 'steps.ex.ratio.scoreRatio', params };
    if (near(answer, asked.scoreA - asked.scoreB, asked.right)) return { verdict: 'wrong', key: 'steps.ex.ratio.difference', params };
    if (near(answer, asked.weightA, asked.right)) return { verdict: 'wrong', key: 'steps.ex.ratio.weight', params };
    const verdict = judgeNumber(answer, asked.right, RATIO_TOLERANCE * asked.right);
    if (verdict === 'right') return { verdict, key: 'steps.ex.ratio.right', params: { ...params, ratio: formatNumber(asked.right, '.4~r') } };
    return { verdict, key: verdict === 'close' ? 'steps.ex.ratio.close' : 'steps.ex.ratio.wrong', params };
  },
  solution(core, inputs, instance, view) {
    const asked = ratioQuestion(view);
    if (!asked?.pair) return { key: 'steps.ex.ratio.solutionNone' };
    return {
      key: 'steps.ex.ratio.solution',
      params: { a: asked.a, b: asked.b, scoreA: formatNumber(asked.scoreA, '.3f'), scoreB: formatNumber(asked.scoreB, '.3f'), ratio: formatNumber(asked.right, '.4~r') },
    };
  },
});
