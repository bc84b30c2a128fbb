// SCORM packages of the lab (what Moodle, Canvas, Blackboard and Open edX
// import): a zip holding imsmanifest.xml (scorm-manifest.mjs) and the lab's
// page, whose script is the SCORM launch (web/src/scorm/launch.js, bundled
// by web/build.mjs into dist/scorm/attention-lab-scorm.js) in place of
// app.js. The page is dist/index.html with two <meta> elements that name
// the SCORM version and the sections, and without the sections (and their
// links) the package leaves out. Everything comes from a built dist/: the
// build makes the whole lab's packages, `npm run scorm` (scorm-cli.mjs)
// packages of chosen sections.
//
// The zip is made by fflate with one fixed date for every file and the files
// in a fixed order, so the same dist/ gives the same bytes.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { SECTIONS, SECTION_IDS } from '../src/sections/registry.js';
import { assembleCatalogue } from '../src/i18n/catalogue-files.js';
import { MASTERY } from '../src/scorm/outcome.js';
import { scormManifest, VERSIONS } from './scorm-manifest.mjs';
import { CORE_PAGE_FILES, TRAINING_WORKER_FILE } from '../src/core-files.js';

export const SCORM_FOLDER = 'scorm';
export const SCORM_SCRIPT = 'attention-lab-scorm.js';
export const LAUNCH_PAGE = 'index.html';
// The page's other files, from dist/, beside the launch page and its script
// (which carries the training worker's text, to work from disk too).
const LAB_FILES = Object.freeze(['app.css', 'katex.css', ...CORE_PAGE_FILES.filter((file) => file !== TRAINING_WORKER_FILE),
  'LICENSE', 'THIRD-PARTY-LICENSES.txt']);
// The zip's date for every file (local time, as a zip stores it: the same fields in every time zone).
const ZIP_DATE = new Date(2000, 0, 1);

const versionTag = (version) => `scorm${version.replace('.', '')}`;

// The package's name: attention-lab-scorm12.zip for the whole lab,
// attention-lab-scorm2004-pooling-masking.zip for chosen sections.
export function packageName(version, sectionIds = SECTION_IDS) {
  const whole = sectionIds.length === SECTION_IDS.length;
  return ['attention-lab', versionTag(version), ...(whole ? [] : sectionIds)].join('-');
}

// The ids asked for, checked against the registry and put in its order.
export function chosenSections(ids) {
  const unknown = ids.filter((id) => !SECTION_IDS.includes(id));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(', ')}: the sections are ${SECTION_IDS.join(', ')}`);
  if (ids.length === 0) throw new Error('no section chosen');
  return SECTION_IDS.filter((id) => ids.includes(id));
}

// The package's title in the LMS: the lab's, with the chosen sections' titles.
export function packageTitle(sectionIds = SECTION_IDS) {
  const catalogue = assembleCatalogue('en');
  if (sectionIds.length === SECTION_IDS.length) return catalogue['app.title'];
  const titles = SECTIONS.filter(({ id }) => sectionIds.includes(id)).map(({ frame }) => catalogue[frame.titleKey]);
  return `${catalogue['app.title']}: ${titles.join('; ')}`;
}

function replaceOnce(text, pattern, replacement, what) {
  let found = 0;
  const result = text.replace(pattern, (...match) => {
    found += 1;
    return typeof replacement === 'function' ? replacement(...match) : replacement;
  });
  if (found !== 1) throw new Error(`the lab's index.html: expected ${what} once, found it ${found} times`);
  return result;
}

// What a package can hide (the page's <meta name="attention-lab:hide">,
// read by web/src/scorm/launch.js as the iframe reads hide=): "reveal",
// the exercises' "Show answer" button.
export const HIDEABLE = Object.freeze(['reveal']);

// The mastery threshold from a teacher's percentage text ("80", "62.5"):
// a share in [0, 1]. Throws, naming the option, for anything else, and
// for a fraction below 1 ("0.8"), which is a share typed where a
// percentage goes far more often than a pass mark under 1 %.
export function masteryShare(text) {
  const trimmed = String(text).trim();
  if (/^0?\.\d+$/.test(trimmed) && Number(trimmed) > 0) {
    throw new Error(`--mastery ${text}: a percentage, not a share: ${Math.round(Number(trimmed) * 10000) / 100} for ${Math.round(Number(trimmed) * 10000) / 100} %`);
  }
  const percent = /^\d{1,3}(\.\d{1,2})?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!(percent >= 0 && percent <= 100)) {
    throw new Error(`--mastery ${text}: a percentage from 0 to 100 (at most two decimals), the share of the exercises right that passes (${MASTERY * 100} when left out)`);
  }
  return Math.round(percent * 100) / 10000;
}

// What to hide from a teacher's list ("reveal"): the tokens, checked.
// Throws, naming the option, for one a package cannot hide.
export function hiddenParts(text) {
  const tokens = [...new Set(String(text).split(',').map((token) => token.trim()).filter(Boolean))];
  const unknown = tokens.filter((token) => !HIDEABLE.includes(token));
  if (tokens.length === 0 || unknown.length > 0) {
    throw new Error(`--hide ${text}: a package can hide ${HIDEABLE.join(', ')} (the exercises' "Show answer" button)`);
  }
  return tokens;
}

const percentText = (share) => String(Math.round(share * 10000) / 100);

// The package's page from the lab's index.html. mastery: the threshold, a
// share; hide: what the package hides (HIDEABLE).
export function launchPage(html, { version, sectionIds, mastery = MASTERY, hide = [] }) {
  let page = replaceOnce(html, '<script src="app.js" defer></script>', `<script src="${SCORM_SCRIPT}" defer></script>`, 'app.js\'s script');
  // A package is no app of its own and keeps no files offline: the LMS serves it.
  page = replaceOnce(page, /\n *<!--[^\n]*-->\n *<meta name="attention-lab:offline" content="on">/, '', 'the offline opt-in');
  page = replaceOnce(page, /\n *<link rel="manifest" href="[^"]*">/, '', 'the app manifest');
  page = replaceOnce(page, /<meta charset="utf-8">\n/, (charset) => `${charset}  <meta name="attention-lab:scorm" content="${version}">\n` +
    `  <meta name="attention-lab:sections" content="${sectionIds.join(',')}">\n` +
    `  <meta name="attention-lab:mastery" content="${percentText(mastery)}">\n` +
    (hide.length > 0 ? `  <meta name="attention-lab:hide" content="${hide.filter((token) => HIDEABLE.includes(token)).join(',')}">\n` : ''), 'the charset');
  for (const id of SECTION_IDS.filter((section) => !sectionIds.includes(section))) {
    page = replaceOnce(page, new RegExp(`\\n *<a href="#${id}"[^>]*>[^<]*</a>`), '', `the link to #${id}`);
    page = replaceOnce(page, new RegExp(`\\n *<section id="${id}" data-section="${id}"></section>`), '', `the section ${id}`);
  }
  return page;
}

// One package from a built dist/: { name, bytes, files } (files: every file
// of the zip, the manifest first). mastery: the share right that passes
// (the manifest's and the page's); hide: what the package hides.
export async function makeScormPackage(dist, {
  version, sectionIds = SECTION_IDS, title = packageTitle(sectionIds), mastery = MASTERY, hide = [],
}) {
  if (!VERSIONS.includes(version)) throw new Error(`${version}: a SCORM version is one of ${VERSIONS.join(', ')}`);
  const ids = chosenSections(sectionIds);
  const name = packageName(version, ids);
  const contents = new Map();
  contents.set(LAUNCH_PAGE, strToU8(launchPage(await readFile(path.join(dist, 'index.html'), 'utf8'), { version, sectionIds: ids, mastery, hide })));
  contents.set(SCORM_SCRIPT, await readFile(path.join(dist, SCORM_FOLDER, SCORM_SCRIPT)));
  for (const file of LAB_FILES) contents.set(file, await readFile(path.join(dist, file)));
  const manifest = scormManifest(version, { identifier: name, title, launch: LAUNCH_PAGE, files: [...contents.keys()], mastery });
  const entries = { 'imsmanifest.xml': strToU8(manifest) };
  for (const [file, bytes] of contents) entries[file] = new Uint8Array(bytes);
  const bytes = zipSync(entries, { level: 9, mtime: ZIP_DATE });
  return { name: `${name}.zip`, bytes, files: Object.keys(entries) };
}

// Writes the packages into `outDir` (dist/scorm/ unless given): one per
// version, of the chosen sections (all unless given), with the mastery
// threshold and what is hidden (makeScormPackage). Returns their paths.
export async function writeScormPackages(dist, {
  versions = VERSIONS, sectionIds = SECTION_IDS, title, outDir, mastery, hide,
} = {}) {
  const folder = outDir ?? path.join(dist, SCORM_FOLDER);
  await mkdir(folder, { recursive: true });
  const written = [];
  for (const version of versions) {
    const made = await makeScormPackage(dist, { version, sectionIds, title, mastery, hide });
    const file = path.join(folder, made.name);
    await writeFile(file, made.bytes);
    written.push({ file, size: made.bytes.length });
  }
  return written;
}
