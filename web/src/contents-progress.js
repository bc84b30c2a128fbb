// The page's contents bar shows, under each section's link, how many of its
// exercises are answered (finished: right or answer shown) as a thin bar
// that fills, with the count in words for a screen reader and as the link's
// tooltip: a bar takes no width from a contents bar that must fit one row.
// Read from the progress store at start, updated by every report of progress.
import { t } from './i18n/index.js';
import { isFinished } from './exercises/exercise-state.js';

export function showContentsProgress({ nav, sections, progress }) {
  const badges = new Map(); // section id -> { badge, names }
  for (const section of sections) {
    const link = nav?.querySelector(`a[href="#${section.id}"]`);
    if (!link || !(section.exercises?.length > 0)) continue;
    // The link's label moves into a span of its own: translating the link
    // (data-i18n) would otherwise wipe the badge.
    const label = document.createElement('span');
    label.dataset.i18n = link.dataset.i18n;
    label.textContent = link.textContent;
    delete link.dataset.i18n;
    link.replaceChildren(label);
    // The bar for the eye; a screen reader hears the words instead.
    const badge = document.createElement('span');
    badge.className = 'toc-progress';
    badge.dataset.role = 'contents-progress';
    badge.setAttribute('aria-hidden', 'true');
    const spoken = document.createElement('span');
    spoken.className = 'visually-hidden';
    link.append(badge, spoken);
    const exercises = section.exercises.map(({ id, kind }) => ({ name: `${section.id}.${id}`, once: kind === 'predict' }));
    badges.set(section.id, { link, badge, spoken, exercises });
  }

  // Written only when the words change: the bar sits in the sticky header,
  // and an equal write restyles it on every answer checked.
  function render(id, { finished, total }) {
    const entry = badges.get(id);
    const { link, badge, spoken } = entry;
    const words = t('nav.exercisesAnswered', { done: finished, total });
    if (entry.words === words) return;
    entry.words = words;
    badge.dataset.done = String(finished);
    badge.dataset.total = String(total);
    badge.dataset.complete = String(finished === total);
    badge.style.setProperty('--share', String(finished / total));
    spoken.textContent = ` (${words})`;
    link.title = words;
  }

  function renderAll() {
    for (const [id, { exercises }] of badges) {
      const finished = exercises.filter(({ name, once }) => isFinished(progress.get(name, { once }))).length;
      render(id, { finished, total: exercises.length });
    }
  }
  renderAll();

  return {
    // A report of progress (mount.js onProgress): its section's score.
    update({ section, score }) {
      if (badges.has(section)) render(section, score);
    },
    // The language changed: the spoken counts follow.
    relabel: renderAll,
  };
}
