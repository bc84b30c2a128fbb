// Helpers of the issue-5 browser tests (sharing, embedding, export,
// accessibility): the axe-core audit, downloads read back, and the course
// example's elements.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST } from './harness.mjs';

export const COURSE_FILE_URL = pathToFileURL(path.join(DIST, 'course-example.html')).href;
const require = createRequire(import.meta.url);
let axeSource = null;

// Every <attention-lab> of the page has drawn.
export async function elementsReady(page, count) {
  await page.waitForFunction((n) => {
    const labs = document.querySelectorAll('attention-lab');
    return labs.length >= n && [...labs].every((lab) => lab.hasAttribute('data-ready'));
  }, count, { timeout: 30000 });
}

// Requests that left the page's own place: not the serving origin (or the
// file system), not inline data, not the page's own blob: downloads.
export function foreignRequests(requests, origin) {
  return requests.filter((url) => !(origin ? url.startsWith(`${origin}/`) : url.startsWith('file://')) &&
    !url.startsWith('data:') && !url.startsWith('blob:'));
}

// axe-core's own source, put into the page (no request anywhere), then run
// over the document, shadow roots included. Returns the violations.
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

// Clicks `trigger` (a locator) and returns the download's name and bytes.
export async function downloadOf(page, trigger) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), trigger.click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(file) };
}

// Opens a figure's save menu and clicks one format.
export async function saveFigure(page, figure, format) {
  const menu = figure.locator('.figure-export').first();
  if (!(await menu.evaluate((details) => details.open))) await menu.locator('summary').click();
  return downloadOf(page, menu.locator(`[data-export="${format}"]`));
}

export function parseCsv(text) {
  return text.replace(/^\ufeff/, '').trimEnd().split(/\r\n/).map((line) => line.split(','));
}

// Runs page-side code in a blank page of `page`'s context, for what the lab's
// own pages refuse under their policy (parsing an exported SVG string with
// DOMParser needs a Trusted Types policy, and the lab allows none).
export async function evaluateInBlankPage(page, code, argument) {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(code, argument);
  } finally {
    await blank.close();
  }
}
