// The page's first script (dist/app.js), a small classic script that picks
// how the page loads:
// - Over http: the page is ES modules cut in chunks (dist/page/), so the
//   first screen waits only for what it draws; the rest (the sections out
//   of sight, KaTeX; the other language once the learner reaches for its switch)
//   arrives while the learner reads.
//   Before importing the page it asks for what the first screen needs at
//   once, in parallel: the page's modules, the catalogue of the learner's
//   language, the first section's code and the core's wasm. Without that a
//   slow network would pay a round trip per level of imports.
// - From disk (file://), or in a frame sandboxed without same origin:
//   module scripts do not load (never from disk; in an opaque origin not
//   without CORS headers), so the page
//   comes as one classic script (dist/app-disk.js), made by the page's
//   second Trusted Types policy, attention-lab-boot, which makes that one
//   script URL and nothing else.
// Over http, at the top of its window, the page also runs a service worker
// that keeps the build's files for a second visit and offline
// (offline/register.js says where; offline/worker.js how): registered once
// everything is drawn, so its downloads never slow the first visit; a new
// build's worker waiting from the last visit takes over before the page
// starts, when this is the only page open.
// A failure to load is said in the loading line, as the core's is.
import { detectLanguage } from './i18n/detect-language.js';
import { registerOfflineWorker, takeOverByNewBuild } from './offline/register.js';
import { fetchWasmEarly, oneScriptUrl, preloadModule } from './one-script-url.js';

// Filled in by the build (build.mjs): the page's entry module, and for the
// entry, each language (its shared texts) and each section (its code, and
// its texts in each language), the module files to ask for with it; the
// page as one script, the wasm loaded first for each section and the service worker.
/* global ATTENTION_LAB_PAGE */
const { entry, preloads, disk, wasm, worker } = ATTENTION_LAB_PAGE;
const scriptUrl = /** @type {HTMLScriptElement} */ (document.currentScript).src;
const url = (file) => new URL(file, scriptUrl).href;

function failed(error) {
  const indicator = document.getElementById('loading');
  indicator?.setAttribute('data-state', 'failed');
  const detail = indicator?.querySelector('[data-role="load-error"]');
  if (detail) detail.textContent = String(error?.message ?? error);
}

function fromDisk() {
  const script = document.createElement('script');
  script.src = oneScriptUrl(url(disk));
  script.onerror = () => failed(new Error(`${disk} could not be loaded: is it beside app.js?`));
  document.head.append(script);
}

// The section drawn first: the one of #embed=<id>, else the first. Own keys
// only: a link's `#embed=__proto__` or `constructor` names no section.
function firstSection() {
  const embedded = /[#&]embed=([\w-]+)/.exec(location.hash)?.[1];
  return embedded && Object.hasOwn(preloads.sections, embedded) ? embedded : Object.keys(preloads.sections)[0];
}

function firstLanguage() {
  const asked = /[#&]language=(en|zh)\b/.exec(location.hash)?.[1];
  return asked ?? detectLanguage();
}

function startEarly() {
  const [language, first] = [firstLanguage(), firstSection()];
  fetchWasmEarly(url(wasm[first]));
  const section = preloads.sections[first];
  const files = new Set([...preloads.entry, ...preloads.languages[language], ...section.code, ...section.texts[language]]);
  for (const file of files) preloadModule(url(file));
}

function overHttp() {
  // The take-over is asked before the page requests anything more: Chromium
  // activates the new build's worker once the old one is idle, and a request
  // that reaches the old worker then keeps it running for minutes, the page
  // blank meanwhile.
  takeOverByNewBuild().then(() => {
    startEarly();
    return import(url(entry));
  }).catch(failed);
  const drawn = new MutationObserver(() => {
    if (document.documentElement.dataset.ready !== 'true') return;
    drawn.disconnect();
    registerOfflineWorker(url(worker), oneScriptUrl);
  });
  drawn.observe(document.documentElement, { attributes: true, attributeFilter: ['data-ready'] });
}

// A frame sandboxed without allow-same-origin (a learning platform's) has
// an opaque origin: its module requests are cross-origin and need CORS
// headers a plain host does not send, so it takes the one-script page too.
if (new URL(scriptUrl).protocol === 'file:' || self.origin === 'null') fromDisk();
else overHttp();
