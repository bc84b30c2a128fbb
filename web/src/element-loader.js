// The <attention-lab> element's small script (dist/attention-lab-element-loader.js),
// a classic script a course page loads with defer:
//
//   <script src="lab/attention-lab-element-loader.js" defer></script>
//   <attention-lab section="pooling"></attention-lab>
//
// It loads the element the way the page loads itself (boot.js):
// - At once, each element on the page shows a placeholder as tall as its
//   section will be, saying what is coming (element-placeholder.js).
// - Over http: the element as ES modules from the page's folder beside this
//   script (dist/page/, shared with the page, so a learner who opened the
//   lab has them already). It asks at once, in parallel, for what the
//   elements on the page need: the element's modules, the catalogue of each
//   one's language, each one's section code and the core's first wasm.
// - From disk (file://), or in a frame sandboxed without same origin, where
//   module scripts do not load: dist/attention-lab-element.js, the element
//   as one classic script, beside this one (made by the Trusted Types
//   policy attention-lab-boot, which makes that one script URL).
import { DEFAULT_ELEMENT_SECTION } from './element-placeholder.js';
import { languageAround } from './i18n/detect-language.js';
import { fetchWasmEarly, oneScriptUrl, preloadModule } from './one-script-url.js';

// Filled in by the build (build.mjs): the element's entry module and the
// module files to ask for with it (as ATTENTION_LAB_PAGE's), the one-script
// element, the wasm loaded first for each section and the placeholder's CSS.
/* global ATTENTION_LAB_ELEMENT */
const { entry, preloads, bundle, wasm, placeholderCss } = ATTENTION_LAB_ELEMENT;
const scriptUrl = /** @type {HTMLScriptElement} */ (document.currentScript).src;
const url = (file) => new URL(file, scriptUrl).href;

function showPlaceholders() {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(placeholderCss);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

// Said on every placeholder still waiting, and in the console.
function failed(error) {
  const message = String(error?.message ?? error);
  for (const element of document.querySelectorAll('attention-lab:not(:defined)')) element.setAttribute('data-load-failed', message);
  console.error(`<attention-lab>: ${message}`);
}

function fromDisk() {
  const script = document.createElement('script');
  script.src = oneScriptUrl(url(bundle));
  script.onerror = () => failed(new Error(`${bundle} could not be loaded: is it beside the loader?`));
  document.head.append(script);
}

// The section an element shows (own keys only: section="__proto__" names no section).
function sectionOf(element) {
  const asked = element?.getAttribute('section') ?? null;
  return asked !== null && Object.hasOwn(preloads.sections, asked) ? asked : DEFAULT_ELEMENT_SECTION;
}

// What the elements on the page now need.
function neededFiles() {
  const files = new Set(preloads.entry);
  for (const element of document.querySelectorAll('attention-lab')) {
    const section = preloads.sections[sectionOf(element)];
    const explicit = element.getAttribute('language');
    const language = explicit !== null && Object.hasOwn(preloads.languages, explicit) ? explicit : languageAround(element);
    for (const file of [...preloads.languages[language], ...section.code, ...section.texts[language]]) files.add(file);
  }
  return files;
}

function overHttp() {
  fetchWasmEarly(url(wasm[sectionOf(document.querySelector('attention-lab'))])); // the first element's
  for (const file of neededFiles()) preloadModule(url(file));
  import(url(entry)).catch(failed);
}

// Once a page: a second copy of this script, or the element already defined, does nothing.
if (!globalThis.attentionLabLoaderUrl && !customElements.get('attention-lab')) {
  // The element's modules find the core's files beside this script (core-wasm-file.js).
  globalThis.attentionLabLoaderUrl = scriptUrl;
  showPlaceholders();
  if (new URL(scriptUrl).protocol === 'file:' || self.origin === 'null') fromDisk();
  else overHttp();
}
