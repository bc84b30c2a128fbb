// Files the page saves, read back: Playwright's download event gives the
// name and the bytes; an exported SVG is parsed in a blank page.
import { readFile } from 'node:fs/promises';

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
