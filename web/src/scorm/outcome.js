// What the LMS is told, from the learner's exercise entries (the progress
// store's, exercise-state.js), over the package's exercises:
//   score       the share answered right (a revealed answer is finished,
//               but not right); null when the package has no exercise
//   completed   every exercise finished (right or revealed)
//   success     'passed' once the score reaches the mastery threshold,
//               'failed' when every exercise is finished below it,
//               'unknown' before that (or with no exercise to score)
// The decisions are written up in docs/learning-and-teaching.md.
import { isFinished } from '../exercises/exercise-state.js';

// 80 % right: the threshold the package's manifest states; an LMS that
// sets its own (cmi.student_data.mastery_score, cmi.scaled_passing_score)
// is followed instead.
export const MASTERY = 0.8;

// entries: { "<section>.<id>": entry }; names: the package's exercises.
export function outcome(entries, names, mastery = MASTERY) {
  const total = names.length;
  let right = 0;
  let finished = 0;
  for (const name of names) {
    const entry = Object.hasOwn(entries, name) ? entries[name] : null;
    if (!entry) continue;
    if (entry.status === 'right') right += 1;
    if (isFinished(entry)) finished += 1;
  }
  const score = total > 0 ? right / total : null;
  const completed = finished === total;
  let success = 'unknown';
  if (score !== null && score >= mastery) success = 'passed';
  else if (score !== null && completed) success = 'failed';
  return Object.freeze({ right, finished, total, score, completed, success });
}
