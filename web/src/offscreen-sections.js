// Sections out of view are neither styled, laid out nor painted
// (content-visibility: auto, page-layout.css): a drag then pays for the
// sections on screen, not for the whole long page. A skipped section is
// sized by contain-intrinsic-size, `auto <its height>`: the height it had
// when it was last drawn, measured once here for every section and kept by
// the browser after each time it is shown, so scroll targets and deep links
// stay where they were.
export function skipSectionsOutOfView(container) {
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
