// The axe-core accessibility audit: axe's own source put into the page (no
// request anywhere), then run over the document, shadow roots included.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let axeSource = null;

// The violations of WCAG 2.2 AA and axe's best practices (in the
// elements `include` names, leaving out those `exclude` names).
export async function axeViolations(page, { include, exclude } = {}) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  return page.evaluate(async ({ include, exclude }) => {
    const context = include || exclude ? { include: include ?? [document], exclude: exclude ?? [] } : document;
    const result = await window.axe.run(context, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')} :: ${node.failureSummary?.split('\n').slice(1, 3).join(' ')}`),
    }));
  }, { include: include ?? null, exclude: exclude ?? null });
}

// The same over the page with every section rendered as a reader sees it:
// a section out of view is not laid out (content-visibility: auto), so
// what depends on layout (a box that scrolls, contrast over what is
// drawn) is audited with each section scrolled into view and drawn, one
// section at a time; then the rest of the page. Violations of one rule are
// put together.
export async function axeViolationsSectionBySection(page) {
  const ids = await page.evaluate(() => [...document.querySelectorAll('main .lab-section')].map((section) => section.id));
  const found = new Map();
  const add = (violations) => {
    for (const violation of violations) {
      const seen = found.get(violation.id);
      if (seen) seen.nodes.push(...violation.nodes);
      else found.set(violation.id, { ...violation, nodes: [...violation.nodes] });
    }
  };
  for (const id of ids) {
    await page.evaluate(async (sectionId) => {
      const section = document.getElementById(sectionId);
      section.scrollIntoView({ block: 'start', behavior: 'instant' });
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      await frame();
      while (!section.checkVisibility({ contentVisibilityAuto: true })) await frame();
      await window.attentionLab?.drawn();
    }, id);
    add(await axeViolations(page, { include: [`#${id}`] }));
  }
  add(await axeViolations(page, { exclude: ['main .lab-section'] }));
  return [...found.values()];
}

export function describeViolations(violations) {
  return violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}\n    ${v.nodes.slice(0, 4).join('\n    ')}`).join('\n');
}
