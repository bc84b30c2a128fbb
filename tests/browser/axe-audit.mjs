// The axe-core accessibility audit: axe's own source put into the page (no
// request anywhere), then run over the document, shadow roots included.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let axeSource = null;

// The violations of WCAG 2.2 AA and axe's best practices.
export async function axeViolations(page, { include } = {}) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  return page.evaluate(async (context) => {
    const result = await window.axe.run(context ? { include: context } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')} :: ${node.failureSummary?.split('\n').slice(1, 3).join(' ')}`),
    }));
  }, include ?? null);
}

export function describeViolations(violations) {
  return violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}\n    ${v.nodes.slice(0, 4).join('\n    ')}`).join('\n');
}
