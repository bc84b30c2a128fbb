// The page's sections as { id, load }, in the page's order: load()
// resolves to the section's declaration. The list is derived from the
// sections' folders and their declarations' `order` by the build
// (web/build-steps/section-list.mjs writes generated/section-loaders.js).
// The page over http loads each section's code when it is needed (a chunk
// of its own, with the figures and libraries only it uses), so the first
// screen waits only for its own sections; the rest arrive while the
// learner reads (mount.js). Bundled into one classic script (a page opened
// from disk, the element), load() resolves at once.
import { registerSections } from '../i18n/index.js';
import { SECTION_LOADERS } from '../generated/section-loaders.js';

export { SECTION_LOADERS };
export const SECTION_IDS = SECTION_LOADERS.map(({ id }) => id);

// A section's number: its place in this list (its title shows it, and the
// catalogue's cross-references {§id} quote it).
export const sectionNumber = (id) => SECTION_IDS.indexOf(id) + 1;
registerSections(SECTION_LOADERS);
