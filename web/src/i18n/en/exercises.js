// English catalogue of the exercises' own words (web/src/exercises/): what
// every section's exercises share; the questions are in the sections' files.
// The same keys as ../zh/exercises.js.
export default {
  'exercises.title': 'Try it yourself',
  'exercises.progress': '{done} of {total} answered.',
  'exercises.wasReset': 'Your answers were reset.',
  'exercises.reset': 'Reset my answers',
  'exercises.check': 'Check',
  'exercises.reveal': 'Show answer',
  'exercises.another': 'Try another',
  'exercises.yourAnswer': 'Your answer',
  'exercises.taskNote': 'Use the controls of this section, then press Check: it checks the figure as it is now.',
  'exercises.hint': 'Hint:',
  'exercises.right': 'Right.',
  'exercises.close': 'Close, within 10 %.',
  'exercises.wrong': 'Not yet.',
  'exercises.pickFirst': 'Pick one of the answers first.',
  'exercises.typeFirst': 'Type a number first.',
  'exercises.cannotCheck': 'This cannot be checked right now: {reason}',
  'exercises.answerIs': 'The answer: {answer}',
  'exercises.answerChoice': 'The answer: “{choice}”.',
  'exercises.covered': 'Make the prediction beside this figure first, or press Reveal: the figure would give it away.',
  'exercises.committed': '**Your prediction is noted;** {reason} It stays as you made it.',
  'exercises.withheld': 'Shown once you have made the prediction.',
  'exercises.revealFigure': 'Reveal',
  'exercises.skipped': '**Skipped:** the figure was shown before you predicted, so this is no longer a prediction. You can still answer it.',
  'exercises.teacherNote': 'For the teacher:',
};
