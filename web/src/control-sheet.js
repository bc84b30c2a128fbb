// On a phone a section's controls panel is a sheet pinned to the foot of
// the screen (controls.css): at most a quarter of the screen, under a bar
// whose button folds it to that bar and opens it again (aria-expanded).
// While a run plays (the trained sections' Play), the sheet docks: folded
// to its bar and the player, so Pause stays in reach, with the figure the
// section's text says to watch brought into view above it. When the run
// rests, the sheet is back as the learner left it. Wider, the panel sits
// beside the figures and the bar is not shown.
import { element } from './dom.js';
import { t } from './i18n/index.js';

// Where controls.css makes the panel a sheet.
const PHONE = '(max-width: 700px)';
let made = 0;

export function createControlSheet(panel) {
  made += 1;
  panel.id ||= `controls-sheet-${made}`;
  const toggle = element('button', {
    type: 'button', className: 'sheet-toggle', 'aria-expanded': 'true', 'aria-controls': panel.id,
    dataset: { action: 'sheet-toggle', i18n: 'sheet.controls' },
  }, [t('sheet.controls')]);
  panel.prepend(element('div', { className: 'sheet-bar' }, [toggle]));
  let chosen = 'open'; // the learner's own choice, kept while a run docks the sheet
  let docked = false;

  function show(state) {
    panel.dataset.sheet = state;
    toggle.setAttribute('aria-expanded', String(state === 'open'));
  }
  show(chosen);
  toggle.addEventListener('click', () => {
    chosen = panel.dataset.sheet === 'open' ? 'folded' : 'open';
    show(chosen);
  });

  // Whether `figure` shows less than a third of itself, or of the room above the sheet.
  function outOfSight(figure) {
    const box = figure.getBoundingClientRect();
    const room = Math.min(window.innerHeight, panel.getBoundingClientRect().top);
    const seen = Math.min(box.bottom, room) - Math.max(box.top, 0);
    return seen < Math.min(box.height, room) / 3;
  }

  return {
    // A run started (`playing`) or came to rest; `watched`: the figure to watch while it plays.
    followRun(playing, watched) {
      if (playing === docked) return;
      docked = playing;
      show(playing ? 'docked' : chosen);
      const phone = globalThis.matchMedia?.(PHONE).matches;
      if (playing && phone && watched && outOfSight(watched)) watched.scrollIntoView({ block: 'start' });
    },
  };
}
