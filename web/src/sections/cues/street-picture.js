// The course notes' photograph (notes 003): looking at a street scene we first
// take in the whole (cars, a street, many billboards); wanting to know where
// it was taken, we focus on the one billboard whose text could tell. Two
// buttons move the gaze from the whole scene to that text; the rest dims, and
// the caption says what changed: the question (the query) chose where to
// look. A view of the section, not a parameter of the maths: not in the URL.
import { select } from 'd3-selection';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { setRichText } from '../../i18n/rich-text.js';

const WIDTH = 360;
const HEIGHT = 200;
// Buildings along the street (x, width, height above the pavement at y = 150).
const BUILDINGS = [[6, 70, 112], [82, 58, 84], [146, 84, 128], [236, 52, 96], [294, 60, 118]];
// Billboards: colour blocks, and the one whose text names the place.
const BILLBOARDS = [
  { x: 16, y: 52, width: 50, height: 26, kind: 'picture' },
  { x: 154, y: 36, width: 68, height: 30, kind: 'picture' },
  { x: 300, y: 50, width: 48, height: 34, kind: 'picture' },
  { x: 88, y: 80, width: 102, height: 34, kind: 'place' },
];
/** @type {[number, string][]} [x, classes] */
const CARS = [[40, 'cues-car'], [214, 'cues-car cues-car-other']];
const LOOKS = {
  whole: { labelKey: 'cues.street.mode.whole', captionKey: 'cues.street.caption.whole' },
  place: { labelKey: 'cues.street.mode.place', captionKey: 'cues.street.caption.place' },
};

export function createStreetPicture(parent) {
  const buttons = Object.entries(LOOKS).map(([look, { labelKey }]) => element('button', {
    type: 'button', className: 'segment', 'aria-pressed': 'false', dataset: { look, i18n: labelKey },
  }));
  const caption = element('p', { className: 'note', 'aria-live': 'polite', dataset: { role: 'street-caption' } });
  const figure = element('div', { className: 'cues-picture street-picture', role: 'img', dataset: { figure: 'street-picture', i18nAria: 'cues.street.label' } });
  parent.append(element('div', { className: 'segmented', role: 'group', dataset: { i18nAria: 'cues.street.modeLabel' } }, buttons), figure, caption);

  const svg = select(figure).append('svg').attr('viewBox', `0 0 ${WIDTH} ${HEIGHT}`).attr('class', 'cues-svg');
  const scene = svg.append('g').attr('class', 'street-scene');
  scene.append('rect').attr('class', 'street-sky').attr('width', WIDTH).attr('height', 150);
  for (const [x, width, height] of BUILDINGS) {
    scene.append('rect').attr('class', 'street-building').attr('x', x).attr('y', 150 - height).attr('width', width).attr('height', height);
  }
  scene.append('rect').attr('class', 'street-road').attr('y', 150).attr('width', WIDTH).attr('height', HEIGHT - 150);
  scene.append('line').attr('class', 'street-lane').attr('x1', 0).attr('x2', WIDTH).attr('y1', 178).attr('y2', 178);
  for (const [x, className] of CARS) {
    const car = scene.append('g').attr('class', className);
    car.append('rect').attr('x', x).attr('y', 156).attr('width', 64).attr('height', 18).attr('rx', 6);
    car.append('rect').attr('x', x + 12).attr('y', 146).attr('width', 36).attr('height', 14).attr('rx', 5);
    for (const dx of [12, 50]) car.append('circle').attr('class', 'street-wheel').attr('cx', x + dx).attr('cy', 176).attr('r', 6);
  }
  for (const board of BILLBOARDS) {
    const group = scene.append('g').attr('class', `street-billboard is-${board.kind}`);
    group.append('rect').attr('x', board.x).attr('y', board.y).attr('width', board.width).attr('height', board.height).attr('rx', 2);
    if (board.kind === 'place') {
      group.append('text').attr('class', 'street-place').attr('x', board.x + board.width / 2).attr('y', board.y + board.height / 2)
        .attr('dy', '0.35em').attr('text-anchor', 'middle').attr('data-i18n', 'cues.street.place');
    } else {
      group.append('circle').attr('class', 'street-ad').attr('cx', board.x + board.width * 0.3).attr('cy', board.y + board.height / 2).attr('r', board.height * 0.28);
    }
  }
  const place = BILLBOARDS.find(({ kind }) => kind === 'place');
  const ring = svg.append('rect').attr('class', 'cues-gaze').attr('rx', 10);

  function look(which) {
    const box = which === 'place'
      ? { x: place.x - 8, y: place.y - 8, width: place.width + 16, height: place.height + 16 }
      : { x: 4, y: 4, width: WIDTH - 8, height: HEIGHT - 8 };
    ring.attr('x', box.x).attr('y', box.y).attr('width', box.width).attr('height', box.height);
    figure.dataset.gaze = which;
    scene.classed('is-focused', which === 'place');
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.look === which));
    caption.dataset.i18nRich = LOOKS[which].captionKey;
    setRichText(caption, t(caption.dataset.i18nRich));
  }
  for (const button of buttons) button.addEventListener('click', () => look(button.dataset.look));
  look('whole');
  return { look };
}
