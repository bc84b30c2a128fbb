import { widthsDrawn } from './figures/width-observer.js';

// Sections out of view are neither styled, laid out nor painted
// (content-visibility: auto, page-layout.css): a drag then pays for the
// sections on screen, not for the whole long page. A skipped section is
// sized by contain-intrinsic-size, `auto <its height>`: the height it had
// when it was last drawn, measured once here for every section and kept by
// the browser after each time it is shown, so scroll targets and deep links
// stay where they were. Measured once every figure is drawn at its real
// width (widthsDrawn): a figure still at its provisional width, as on a fast
// machine that builds every section before a frame, is 130 px off in
// multi-head. Resolves once they are skipped.
export async function skipSectionsOutOfView(container) {
  await widthsDrawn();
  const sections = [...container.querySelectorAll('.lab-section')];
  // All measured first, then all set: one layout, not one a section.
  const heights = sections.map((section) => {
    const box = getComputedStyle(section);
    const frame = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth']
      .reduce((sum, name) => sum + (Number.parseFloat(box[name]) || 0), 0);
    return Math.max(0, section.getBoundingClientRect().height - frame);
  });
  sections.forEach((section, index) => {
    section.style.containIntrinsicSize = `auto ${heights[index].toFixed(1)}px`;
    section.classList.add('skips-out-of-view');
  });
}

// A language switch changes every section's height, but a skipped section
// keeps the height it had when last shown, in the old language: jumps and
// deep links would land off by the difference. So after a switch every
// section is shown for one frame (the browser then remembers its new
// height) and skipped again, measured anew. Resolves once they are.
export function remeasureSectionsOutOfView(container) {
  for (const section of container.querySelectorAll('.lab-section')) section.classList.remove('skips-out-of-view');
  // skipSectionsOutOfView waits for a frame drawn with them shown.
  return skipSectionsOutOfView(container);
}

// Lands on a section as a link to it does, and stays there while the
// sections around it settle. A section out of view has the height it was
// last drawn at; drawn again near the target it may come out taller or
// shorter (WebKit lays text a little wider, and has no scroll anchoring to
// keep the target in place as Chromium and Firefox do), and the target then
// slides away from the top of the window: at 1280 px WebKit left
// #section=translation's top 267 px above its place. So the landing is
// checked frame by frame and made again, until the target has stayed put
// for a while or the reader scrolls, clicks or presses a key. settling():
// a promise the page is still laying out for (a language switch's
// re-measuring), if any: the landing holds until it has settled too.
const SETTLED_FRAMES = 20; // frames in a row with the target in its place
const LANDING_FRAMES = 600; // at most, about 10 s at 60 frames a second
export function landOn(target, { settling = () => null } = {}) {
  let busy = false;
  const pending = settling();
  if (pending) {
    busy = true;
    Promise.resolve(pending).catch(() => {}).then(() => { busy = false; });
  }
  target.scrollIntoView({ block: 'start', behavior: 'instant' });
  const place = target.getBoundingClientRect().top; // under the sticky bar (scroll-padding-top)
  let stopped = false;
  const stop = () => { stopped = true; };
  const intents = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  for (const intent of intents) window.addEventListener(intent, stop, { once: true, passive: true, capture: true });
  let still = 0;
  let frames = 0;
  const check = () => {
    if (stopped || !target.isConnected || frames++ > LANDING_FRAMES) return finish();
    if (Math.abs(target.getBoundingClientRect().top - place) > 1) {
      still = 0;
      target.scrollIntoView({ block: 'start', behavior: 'instant' });
    } else if (++still >= SETTLED_FRAMES && !busy) return finish();
    requestAnimationFrame(check);
  };
  function finish() {
    for (const intent of intents) window.removeEventListener(intent, stop, { capture: true });
  }
  requestAnimationFrame(check);
}
