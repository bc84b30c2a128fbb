// The page's first script (dist/app.js), a small classic script that picks
// how the page loads:
// - Over http: the page is ES modules cut in chunks (dist/page/), so the
//   first screen waits only for what it draws; the rest (the sections out
//   of sight, KaTeX, the other language) arrives while the learner reads.
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
// A failure to load is said in the loading line, as the core's is.
import { detectLanguage } from './i18n/detect-language.js';

// Filled in by the build (build.mjs): the page's entry module, and for the
// entry, each language (its shared texts) and each section (its code, and
// its texts in each language), the module files to ask for with it.
/* global ATTENTION_LAB_PAGE */
const { entry, preloads, disk, wasm } = ATTENTION_LAB_PAGE;
const scriptUrl = document.currentScript.src;
const url = (file) => new URL(file, scriptUrl).href;

function failed(error) {
  const indicator = document.getElementById('loading');
  indicator?.setAttribute('data-state', 'failed');
  const detail = indicator?.querySelector('[data-role="load-error"]');
  if (detail) detail.textContent = String(error?.message ?? error);
}

function fromDisk() {
  const allowed = url(disk);
  const policy = globalThis.trustedTypes?.createPolicy('attention-lab-boot', {
    createScriptURL(asked) {
      if (asked !== allowed) throw new TypeError(`attention-lab-boot: only ${allowed} may be loaded, not ${asked}`);
      return asked;
    },
  });
  const script = document.createElement('script');
  script.src = policy ? policy.createScriptURL(allowed) : allowed;
  script.onerror = () => failed(new Error(`${disk} could not be loaded: is it beside app.js?`));
  document.head.append(script);
}

function preloadModule(href) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = href;
  document.head.append(link);
}

// The section drawn first: the one of #embed=<id>, else the first.
function firstSection() {
  const embedded = /[#&]embed=([\w-]+)/.exec(location.hash)?.[1];
  return embedded && preloads.sections[embedded] ? embedded : Object.keys(preloads.sections)[0];
}

function firstLanguage() {
  const asked = /[#&]language=(en|zh)\b/.exec(location.hash)?.[1];
  return asked ?? detectLanguage();
}

function overHttp() {
  // The wasm's download begins now; the page takes the response
  // (core-wasm-file.js). A <link rel=preload> would warn in the console
  // when the page asks for it more than a few seconds after the load
  // event, which it may on a slow network.
  const wasmUrl = url(wasm);
  globalThis.attentionLabWasmFetch = { url: wasmUrl, response: fetch(wasmUrl).catch(() => null) };
  const [language, section] = [firstLanguage(), preloads.sections[firstSection()]];
  const files = new Set([...preloads.entry, ...preloads.languages[language], ...section.code, ...section.texts[language]]);
  for (const file of files) preloadModule(url(file));
  import(url(entry)).catch(failed);
}

// A frame sandboxed without allow-same-origin (a learning platform's) has
// an opaque origin: its module requests are cross-origin and need CORS
// headers a plain host does not send, so it takes the one-script page too.
if (new URL(scriptUrl).protocol === 'file:' || self.origin === 'null') fromDisk();
else overHttp();
