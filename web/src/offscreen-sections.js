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
