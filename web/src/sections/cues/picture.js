// The introduction's scene (d2l 10.1): five objects on a desk, all printed
// matter black and white, the coffee cup red. With no wish of our own the
// eye goes to the cup (a nonvolitional cue: saliency); wanting to read, it
// goes to the book (a volitional cue: what attention calls the query). Two
// buttons move the gaze between them; the caption says which cue acts. A view
// of the section, not a parameter of the maths: it is not in the URL.
import { select } from 'd3-selection';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { setRichText } from '../../i18n/rich-text.js';

// Each object: its catalogue label, its box on the desk (viewBox units) and
// its class (the cup's colour comes from CSS, as every colour of the page).
const OBJECTS = [
  { id: 'newspaper', labelKey: 'cues.object.newspaper', x: 14, y: 40, width: 96, height: 112, lines: 7 },
  { id: 'paper', labelKey: 'cues.object.paper', x: 124, y: 52, width: 76, height: 100, lines: 6 },
  { id: 'cup', labelKey: 'cues.object.cup', x: 222, y: 86, width: 52, height: 66, lines: 0 },
  { id: 'notebook', labelKey: 'cues.object.notebook', x: 300, y: 50, width: 82, height: 102, lines: 5 },
  { id: 'book', labelKey: 'cues.object.book', x: 402, y: 62, width: 100, height: 90, lines: 0 },
];
// Each cue: the object it draws the eye to, its button's label and its caption.
const CUES = {
  nonvolitional: { target: 'cup', labelKey: 'cues.mode.nonvolitional', captionKey: 'cues.caption.nonvolitional' },
  volitional: { target: 'book', labelKey: 'cues.mode.volitional', captionKey: 'cues.caption.volitional' },
};
const EYE = { x: 258, y: 14 };

export function createCuesPicture(parent) {
  const buttons = Object.entries(CUES).map(([mode, { labelKey }]) => element('button', {
    type: 'button', className: 'segment', 'aria-pressed': 'false', dataset: { mode, i18n: labelKey },
  }));
  const caption = element('p', { className: 'note', 'aria-live': 'polite', dataset: { role: 'cues-picture-caption' } });
  const figure = element('div', { className: 'cues-picture', role: 'img', dataset: { figure: 'cues-picture', i18nAria: 'cues.pictureLabel' } });
  parent.append(element('div', { className: 'segmented', role: 'group', dataset: { i18nAria: 'cues.modeLabel' } }, buttons), figure, caption);

  const svg = select(figure).append('svg').attr('viewBox', '0 0 526 190').attr('class', 'cues-svg');
  svg.append('line').attr('class', 'cues-desk').attr('x1', 4).attr('x2', 512).attr('y1', 153).attr('y2', 153);
  for (const object of OBJECTS) {
    const group = svg.append('g').attr('class', 'cues-object').attr('data-object', object.id);
    if (object.id === 'cup') {
      group.append('path').attr('class', 'cues-cup-handle')
        .attr('d', `M${object.x + object.width} ${object.y + 16} q18 0 18 16 t-18 16`);
      group.append('rect').attr('class', 'cues-cup').attr('x', object.x).attr('y', object.y)
        .attr('width', object.width).attr('height', object.height).attr('rx', 8);
    } else {
      group.append('rect').attr('class', 'cues-sheet').attr('x', object.x).attr('y', object.y)
        .attr('width', object.width).attr('height', object.height).attr('rx', 3);
      for (let i = 0; i < object.lines; i += 1) {
        group.append('line').attr('class', 'cues-print')
          .attr('x1', object.x + 9).attr('x2', object.x + object.width - (i % 3 === 2 ? 30 : 9))
          .attr('y1', object.y + 16 + i * 13).attr('y2', object.y + 16 + i * 13);
      }
      if (object.id === 'book') {
        group.append('rect').attr('class', 'cues-spine').attr('x', object.x).attr('y', object.y).attr('width', 12).attr('height', object.height);
      }
    }
    group.append('text').attr('class', 'cues-label').attr('x', object.x + object.width / 2).attr('y', 174)
      .attr('text-anchor', 'middle').attr('data-i18n', object.labelKey);
  }
  // The gaze: a ring round the object looked at, and the line of sight from the eye.
  const sight = svg.append('line').attr('class', 'cues-sight').attr('x1', EYE.x).attr('y1', EYE.y + 8);
  const ring = svg.append('ellipse').attr('class', 'cues-gaze');
  svg.append('circle').attr('class', 'cues-eye').attr('cx', EYE.x).attr('cy', EYE.y).attr('r', 8);
  svg.append('circle').attr('class', 'cues-pupil').attr('cx', EYE.x).attr('cy', EYE.y + 2).attr('r', 3.5);

  function look(mode) {
    const target = OBJECTS.find(({ id }) => id === CUES[mode].target);
    const cx = target.x + target.width / 2;
    const cy = target.y + target.height / 2;
    ring.attr('cx', cx).attr('cy', cy).attr('rx', target.width / 2 + 12).attr('ry', target.height / 2 + 10);
    sight.attr('x2', cx).attr('y2', target.y - 10);
    figure.dataset.gaze = target.id;
    svg.selectAll('.cues-object').classed('is-looked-at', function lookedAt() {
      return /** @type {SVGElement} */ (this).dataset.object === target.id;
    });
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
    caption.dataset.i18nRich = CUES[mode].captionKey;
    setRichText(caption, t(caption.dataset.i18nRich));
  }
  for (const button of buttons) button.addEventListener('click', () => look(button.dataset.mode));
  look('nonvolitional');
  // The labels are written by the page's translation pass (data-i18n), which
  // also re-labels the caption (data-i18n-rich) on a language switch.
  return { look };
}
