// The page (dist/index.html) from web/index.html, with each section's nav
// link and <section> element written where the template marks them, in the
// page's order (sections/section-loaders.js): the sections' folders are the
// one list of them. A nav link's text is its key nav.<camelCased id> in the
// shared catalogue part, in English until the page's language is set.
import { readFile, writeFile } from 'node:fs/promises';
import { SECTION_IDS } from '../src/sections/section-loaders.js';
import english from '../src/i18n/en/shared.js';

const TEMPLATE = new URL('../index.html', import.meta.url);

// nav.<id> with the id camelCased: nav.selfAttention.
export const navKey = (id) => `nav.${id.replace(/-(\w)/g, (dash, letter) => letter.toUpperCase())}`;

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const MARKS = {
  '<!-- section links -->': (id) => `<a href="#${id}" data-i18n="${navKey(id)}">${escapeHtml(english[navKey(id)] ?? navKey(id))}</a>`,
  '<!-- sections -->': (id) => `<section id="${id}" data-section="${id}"></section>`,
};

export async function pageHtml() {
  let html = await readFile(TEMPLATE, 'utf8');
  for (const [mark, line] of Object.entries(MARKS)) {
    const at = html.match(new RegExp(`( *)${mark}`));
    if (!at) throw new Error(`web/index.html: the mark ${mark} is missing`);
    html = html.replace(at[0], SECTION_IDS.map((id) => `${at[1]}${line(id)}`).join('\n'));
  }
  return html;
}

export async function writePageHtml(file) {
  await writeFile(file, await pageHtml());
}
