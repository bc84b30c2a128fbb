// The page's side of the answers' records (interactions.js): what the
// learner answered, read from the exercise's card on screen at the moment
// its check is stored (the progress store saves before the card is drawn
// again), and how long it took them: from the card's first moment on
// screen in this session (the launch, for a card never seen) or the
// exercise's previous check, answer shown or fresh start, whichever is
// later. The cards are watched until every one of the package's is.
import { interactionType } from './interactions.js';

// The answer a card shows: its chosen options' ids (in the options'
// order), or its number; null for none.
function answerOnCard(card, type) {
  if (!card) return null;
  if (type === 'choice') {
    const ids = [...card.querySelectorAll('.exercise-options input:checked')].map((box) => box.value);
    return ids.length === 0 ? null : ids;
  }
  const box = card.querySelector('input.exercise-number');
  return box && box.value.trim() !== '' && Number.isFinite(box.valueAsNumber) ? box.valueAsNumber : null;
}

// When each card was first on screen: an IntersectionObserver on every
// card, found as the sections build them (a MutationObserver, let go once
// all `total` are watched).
function watchCards(root, total, now) {
  const seen = new Map();
  if (typeof IntersectionObserver !== 'function' || typeof MutationObserver !== 'function') return seen;
  const watched = new WeakSet();
  let count = 0;
  const visible = new IntersectionObserver((records) => {
    for (const { target, isIntersecting } of records) {
      if (!isIntersecting) continue;
      const card = /** @type {HTMLElement} */ (target); // an exercise card: observed below
      if (!seen.has(card.dataset.exercise)) seen.set(card.dataset.exercise, now());
      visible.unobserve(target);
    }
  });
  const builds = new MutationObserver(() => look());
  function look() {
    for (const card of root.querySelectorAll('[data-exercise]')) {
      if (watched.has(card)) continue;
      watched.add(card);
      count += 1;
      visible.observe(card);
    }
    if (count >= total) builds.disconnect();
  }
  builds.observe(root, { childList: true, subtree: true });
  look();
  return seen;
}

// sections: the package's (their exercises' declarations); root: where
// the cards are (the document). Returns describe(events) for
// createSuspendDataStorage.
export function createAnswerRecords({ sections, root, now = () => performance.now(), date = () => new Date() }) {
  const declarations = new Map(sections.flatMap(({ id, exercises = [] }) => exercises.map((exercise) => [`${id}.${exercise.id}`, exercise])));
  const launched = now();
  const seen = watchCards(root, declarations.size, now);
  const last = new Map();
  return function describe(events) {
    const records = [];
    for (const { name, event, entry } of events) {
      const exercise = declarations.get(name);
      if (!exercise) continue;
      const at = now();
      const since = Math.max(seen.get(name) ?? launched, last.get(name) ?? launched);
      last.set(name, at);
      if (event === 'fresh') continue;
      const type = interactionType(exercise);
      let answer = null;
      if (event !== 'revealed') {
        answer = type === 'performance'
          ? (entry?.given ?? null)
          : answerOnCard(root.querySelector(`[data-exercise="${CSS.escape(name)}"]`), type);
      }
      records.push({ id: name, type, event, answer, latency: Math.max(0, at - since) / 1000, at: date() });
    }
    return records;
  };
}
