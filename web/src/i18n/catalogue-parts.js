// Each language's catalogue in parts, each a module of its own: the page's
// shared strings (header, nav, contents bar, loading line), the exercises'
// common ones, and one part per section, web/src/i18n/<language>/<id>.js,
// named by the section's id (the build lists them from the sections'
// folders: web/build-steps/section-list.mjs). The page loads the shared
// parts and those of the sections it shows, in the learner's language; the
// rest while the learner reads (i18n/index.js). A key lives in one part only
// (tests/web/catalogues.test.mjs checks both languages). Written out as
// literal import()s: the bundler cuts a module per literal import().
import { SECTION_CATALOGUE_PARTS } from '../generated/catalogue-parts.js';

export const SHARED_PARTS = Object.freeze(['shared', 'exercises']);

export const CATALOGUE_PARTS = Object.freeze({
  en: Object.freeze({
    shared: () => import('./en/shared.js'),
    exercises: () => import('./en/exercises.js'),
    ...SECTION_CATALOGUE_PARTS.en,
  }),
  zh: Object.freeze({
    shared: () => import('./zh/shared.js'),
    exercises: () => import('./zh/exercises.js'),
    ...SECTION_CATALOGUE_PARTS.zh,
  }),
});
