// A section's exercises answered as a learner answers them: a choice
// clicked, a number typed and Enter pressed, Check clicked; then read as the
// learner reads them (the status, the verdict's text, whether the hint and a
// figure's cover show). `pageOf()` gives the page (tests open it in a hook),
// `section` the section's id: exercises are named by their id in it.
import { settled, shownText } from './harness.mjs';

export function exerciseDriver(pageOf, section) {
  const exercise = (id) => pageOf().locator(`[data-exercise="${section}.${id}"]`);
  const check = async (id) => {
    await exercise(id).locator('[data-action="check"]').click();
    await settled(pageOf());
  };
  return {
    exercise,
    check,
    statusOf: (id) => exercise(id).getAttribute('data-status'),
    verdictOf: (id) => shownText(exercise(id).locator('.exercise-verdict')),
    hintShown: (id) => exercise(id).locator('.exercise-hint').isVisible(),
    async choose(id, option) {
      await exercise(id).locator(`input[value="${option}"]`).check();
      await check(id);
    },
    async type(id, value) {
      const box = exercise(id).locator('input[type="number"]');
      await box.fill(String(value));
      await box.press('Enter');
      await settled(pageOf());
    },
    async resetAnswers() {
      await pageOf().locator(`#${section} [data-action="reset-exercises"]`).click();
      await settled(pageOf());
    },
    covered: (figure) => pageOf().locator(`#${section} [data-figure="${figure}"]`).first().getAttribute('data-covered'),
  };
}
