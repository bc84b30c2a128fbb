// Each section's height as an <attention-lab> element first draws it, in
// each language, at each band's width (web/src/element-placeholder.js): what
// the loader's placeholders are sized by. element-loader.test.mjs holds
// web/src/element-heights.js to it; after a change to a section's layout,
// write the table again from a fresh build:
//
//   node tests/browser/element-heights.mjs --write
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { PLACEHOLDER_BANDS } from '../../web/src/element-placeholder.js';
import { SECTION_IDS } from '../../web/src/sections/section-loaders.js';
import { CATALOGUE_PARTS } from '../../web/src/i18n/catalogue-parts.js';
import { launchBrowser, serveDist, openPage, elementsReady } from './harness.mjs';

export const LANGUAGES = Object.keys(CATALOGUE_PARTS);

// A course page of every section at one width, in one language (the page's <html lang>).
export function coursePage(language, width, sections = SECTION_IDS) {
  const labs = sections.map((id) => `<div style="width:${width}px"><attention-lab section="${id}"></attention-lab></div>`).join('\n');
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>heights</title>
<script src="attention-lab-element-loader.js" defer></script></head><body style="margin:8px">${labs}<p id="after">after</p></body></html>`;
}

// { section: { language: [px a band] } }, widest band first.
export async function measureElementHeights(browser, origin) {
  const heights = Object.fromEntries(SECTION_IDS.map((id) => [id, Object.fromEntries(LANGUAGES.map((language) => [language, []]))]));
  for (const language of LANGUAGES) {
    for (const { measuredAt } of PLACEHOLDER_BANDS) {
      const html = coursePage(language, measuredAt);
      const { page, context, problems } = await openPage(browser, `${origin}/element-heights.html`, {
        ready: 'attention-lab', viewport: { width: 1280, height: 900 },
        routes: (served) => served.route('**/element-heights.html', (route) => route.fulfill({ contentType: 'text/html', body: html })),
      });
      await elementsReady(page, SECTION_IDS.length);
      const measured = await page.evaluate(() => [...document.querySelectorAll('attention-lab')]
        .map((lab) => [lab.getAttribute('section'), Math.round(lab.getBoundingClientRect().height)]));
      if (problems.length > 0) throw new Error(problems.join('\n'));
      for (const [id, height] of measured) heights[id][language].push(height);
      await context.close();
    }
  }
  return heights;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--write')) {
  const browser = await launchBrowser();
  const server = await serveDist();
  const heights = await measureElementHeights(browser, server.origin);
  const rows = Object.entries(heights).map(([id, byLanguage]) => `  '${id}': { ${Object.entries(byLanguage)
    .map(([language, list]) => `${language}: [${list.join(', ')}]`).join(', ')} },`);
  await writeFile('web/src/element-heights.js', `// Written by tests/browser/element-heights.mjs --write: do not edit by hand.
// Each section's height (px) as an <attention-lab> element first draws it
// (defaults, exercises on, nothing opened), in each language, at each band's
// measuredAt width (element-placeholder.js: PLACEHOLDER_BANDS, widest first).
export const ELEMENT_HEIGHTS = Object.freeze({
${rows.join('\n')}
});
`);
  console.log(rows.join('\n'));
  await browser.close();
  server.close();
}
