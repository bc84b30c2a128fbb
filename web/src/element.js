// <attention-lab>: a section of the lab inside any page. Two ways in:
// dist/attention-lab-element-loader.js, a small script that loads this
// module and the section's code and wasm from beside it as the page does
// (element-loader.js), or dist/attention-lab-element.js, this module as one
// classic script with everything inlined (what the loader uses from file://):
//
//   <script src="attention-lab-element-loader.js" defer></script>
//   <attention-lab section="pooling" kernel="boxcar" w="2" hide="seed,noise"></attention-lab>
//
// Attributes (docs/learning-and-teaching.md lists them):
//   section   a section id of the registry (default: pooling)
//   hide      controls to hide, as the hash's hide= (parameter names, button
//             actions, or controls / export / text)
//   language  en or zh (else the page's <html lang>, else the browser's)
//   heading   the section's title in the course's own words (plain text),
//             which replace the lab's section number too (hide="numbers"
//             hides it under the lab's own title)
//   exercises on (default), off, or answers: the section's exercises shown,
//             hidden, or shown with every answer and the teacher's note
//   any parameter of the table, by its name in kebab case (leave-one-out),
//   the documented spelling, or lower-cased (leaveoneout), an alias: given
//   both, the documented one wins and the console warns, naming both
//   (element-attributes.js); values are read exactly as from the URL hash
//   (url-state.js readParameter): clamped, and a malformed one gives the
//   parameter's default (the console says so), whatever it was before.
//
// The element's state (its store) is made once, from the attributes, and
// then belongs to the learner: a parameter's attribute changes that
// parameter only, and `hide` or `section` changes keep the state as it is.
//
// Everything renders in an open shadow root: the host page's CSS does not
// reach in (`all: initial` on the host and the lab's root) and the lab's
// CSS does not reach out. One exception, forced by browsers: @font-face
// rules are ignored inside shadow roots, so KaTeX's font faces (and only
// they: nothing that styles an element) are added to the document once.
//
// All elements of a page share one wasm instance (loadAttentionCore caches
// it) and one language (the strings come from one t()): setting `language`
// on one element switches them all.
import { parameters, createStore } from './state.js';
import {
  ATTRIBUTE_PARAMETERS, attributeOf, parameterAttributes, conflictWarning, malformedWarning,
} from './element-attributes.js';
import { SECTION_LOADERS, SECTION_IDS } from './sections/section-loaders.js';
import { mountLab } from './mount.js';
import { readParameter, parseHideList, readHeading, readExerciseMode } from './url-state.js';
import {
  SHARED_PARTS, loadCatalogue, t, translateTree, useLanguage, useSectionAlone,
} from './i18n/index.js';
import { languageAround } from './i18n/detect-language.js';
import { DEFAULT_ELEMENT_SECTION } from './element-placeholder.js';
import { texReady } from './figures/tex.js';
import { hideSheet, listenForFrameHeights } from './embed.js';
import { preparePrinting } from './print-preparation.js';
import { shadowCss, documentCss } from 'attention-lab:css';

// An attribute's text as its parameter's value; a malformed one means the
// parameter's default, with a warning naming it.
function readAttribute(parameter, attribute, text) {
  const value = readParameter(parameter, text);
  if (value !== undefined) return value;
  console.warn(malformedWarning(attribute, text, parameter));
  return parameters[parameter].default;
}

let shadowSheet = null;
function sharedSheet() {
  if (!shadowSheet) {
    shadowSheet = new CSSStyleSheet();
    shadowSheet.replaceSync(shadowCss);
    const fonts = new CSSStyleSheet();
    fonts.replaceSync(documentCss);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, fonts];
  }
  return shadowSheet;
}

const instances = new Set();
// Printed, every element's figures are made ready for paper as the page's are.
preparePrinting(() => [...instances].map((instance) => instance.shadowRoot));
let pageLanguage = null;

function explicitLanguage(element) {
  return readParameter('language', element.getAttribute('language') ?? '');
}

function setPageLanguage(language) {
  pageLanguage = language;
  useLanguage(language);
  for (const instance of instances) instance.store?.set({ language });
}

function loadingIndicator() {
  const indicator = document.createElement('div');
  indicator.className = 'loading';
  indicator.setAttribute('role', 'status');
  indicator.dataset.state = 'loading';
  const parts = [['span', 'spinner'], ['span', 'loading-text', 'app.loading'], ['span', 'loading-failed', 'app.loadFailed'], ['span', 'loading-detail']];
  for (const [tag, className, key] of parts) {
    const node = document.createElement(tag);
    node.className = className;
    if (key) node.dataset.i18n = key;
    if (className === 'spinner') node.setAttribute('aria-hidden', 'true');
    if (className === 'loading-detail') node.dataset.role = 'load-error';
    indicator.append(node);
  }
  return indicator;
}

class AttentionLabElement extends HTMLElement {
  static get observedAttributes() {
    return [...new Set(['section', 'hide', 'heading', 'exercises', 'language', 'lang', ...ATTRIBUTE_PARAMETERS.keys()])];
  }

  constructor() {
    super();
    // The loader's placeholder (element-placeholder.js) held the section's
    // place until now; its height is kept until the section is drawn, so
    // the course page does not jump. (Read before the shadow root replaces
    // what the placeholder drew.)
    this.heldHeight = this.isConnected ? this.getBoundingClientRect().height : 0;
    this.attachShadow({ mode: 'open' });
    this.lab = null;
    this.store = null; // made once, from the attributes: the learner's state lives here
    this.root = null;
  }

  connectedCallback() {
    instances.add(this);
    if (!this.lab) this.render();
  }

  // Taken out of the page: once the current task is over (a move to another
  // place in the page disconnects and connects again in the same task, and
  // keeps everything), the lab is released: a training run stops, no
  // animation frame or timer of it stays pending, its store subscriptions
  // and figures go. The state stays: put back, the element draws again from it.
  disconnectedCallback() {
    instances.delete(this);
    queueMicrotask(() => {
      if (!this.isConnected) this.release();
    });
  }

  release() {
    this.lab?.dispose();
    this.lab = null;
    this.root = null;
    this.removeAttribute('data-ready');
    this.shadowRoot.replaceChildren();
    this.letGoOfHeight();
  }

  // The placeholder's height, held while the section loads and let go of once it is drawn (or failed).
  holdHeight() {
    if (this.heldHeight > 0) this.style.minHeight = `${this.heldHeight}px`;
  }

  letGoOfHeight() {
    this.heldHeight = 0;
    this.style.removeProperty('min-height');
  }

  // A parameter's attribute sets that parameter; `hide` re-hides controls and
  // `section` shows another section, both with the state as it is (what the
  // learner changed stays); the language is the page's (see the top).
  // (Out of the page, a parameter still goes into the state; the rest is
  // read when the element is put back.)
  attributeChangedCallback(name, previous, value) {
    if (!this.store || previous === value) return;
    if (name === 'hide') {
      if (this.lab) this.applyHide();
    } else if (name === 'section' || name === 'heading' || name === 'exercises') {
      if (this.lab) this.mountSection();
    } else if (name === 'language' || name === 'lang') {
      if (this.lab) setPageLanguage(explicitLanguage(this) ?? languageAround(this));
    } else if (ATTRIBUTE_PARAMETERS.has(name)) {
      // Whichever spelling changed, the parameter takes the value of the
      // one that wins (the documented one when both are there).
      const parameter = ATTRIBUTE_PARAMETERS.get(name);
      const read = (attribute) => this.getAttribute(attribute);
      const { attribute, value: text, conflict } = attributeOf(parameter, read);
      if (conflict) console.warn(conflictWarning(conflict, read));
      this.store.set({ [parameter]: attribute === null ? parameters[parameter].default : readAttribute(parameter, attribute, text) });
    }
  }

  // The state the attributes describe: each through the parameter table.
  initialState() {
    const read = (attribute) => this.getAttribute(attribute);
    const { values, conflicts } = parameterAttributes(read);
    for (const conflict of conflicts) console.warn(conflictWarning(conflict, read));
    const state = {};
    for (const [parameter, text] of Object.entries(values)) {
      if (parameter !== 'language') state[parameter] = readAttribute(parameter, attributeOf(parameter, read).attribute, text);
    }
    return state;
  }

  render() {
    const explicit = explicitLanguage(this);
    const language = explicit ?? pageLanguage ?? languageAround(this);
    if (language !== pageLanguage) setPageLanguage(language);
    if (!this.store) {
      this.store = createStore({ ...this.initialState(), language });
      this.store.subscribe((state, changed) => {
        if (changed.has('language')) this.root?.setAttribute('lang', state.language === 'zh' ? 'zh-CN' : 'en');
      });
    }
    this.store.set({ language });
    this.applyHide();
    this.mountSection();
  }

  // The controls the `hide` attribute names, hidden by one stylesheet of the
  // shadow root, replaced when the attribute changes.
  applyHide() {
    const hide = parseHideList(this.getAttribute('hide') ?? '');
    const sheet = hideSheet(hide);
    this.shadowRoot.adoptedStyleSheets = sheet ? [sharedSheet(), sheet] : [sharedSheet()];
    if (this.root) translateTree(this.root);
  }

  // The section the `section` attribute names, built afresh into the shadow
  // root on the element's store: a new section shows the same state.
  mountSection() {
    this.lab?.dispose();
    this.removeAttribute('data-ready');
    const requested = this.getAttribute('section');
    const section = SECTION_IDS.includes(requested) ? requested : DEFAULT_ELEMENT_SECTION;
    const { language } = this.store.get();
    const root = document.createElement('div');
    root.className = 'lab-root';
    root.dataset.sectionShown = section;
    root.setAttribute('lang', language === 'zh' ? 'zh-CN' : 'en');
    this.root = root;
    const indicator = loadingIndicator();
    root.append(indicator);
    this.shadowRoot.replaceChildren(root);
    this.holdHeight();
    useLanguage(language);
    useSectionAlone(true); // a lab of one section: no other to refer to
    // The shared catalogue: in the element's script, or a module beside it (the loader's, asked for with it).
    loadCatalogue(language, SHARED_PARTS).then(() => /** @type {NodeListOf<HTMLElement>} */ (indicator.querySelectorAll('[data-i18n]')).forEach((node) => {
      node.textContent = t(node.dataset.i18n);
    }));

    const lab = mountLab({
      container: root, sections: SECTION_LOADERS.filter(({ id }) => id === section), store: this.store, indicator,
      heading: readHeading(this.getAttribute('heading')),
      exercises: readExerciseMode(this.getAttribute('exercises')) ?? 'on',
      // For the course page: every change of the learner's progress, as an event of the element.
      onProgress: (detail) => {
        if (this.lab === lab) this.dispatchEvent(new CustomEvent('attention-lab:progress', { detail, bubbles: true, composed: true }));
      },
    });
    this.lab = lab;
    this.ready = lab.ready.then(texReady).then(() => {
      if (this.lab !== lab) return this; // replaced meanwhile: the newer one announces itself
      this.letGoOfHeight();
      this.setAttribute('data-ready', '');
      this.dispatchEvent(new CustomEvent('attention-lab:ready', { bubbles: true, composed: true }));
      return this;
    });
    this.ready.catch(() => this.letGoOfHeight()); // shown in the element; no unhandled rejection
  }

  // The current state (a copy) and the core, for the curious and the tests.
  get state() {
    return { ...(this.store?.get() ?? {}) };
  }

  get core() {
    return this.lab?.core ?? null;
  }
}

if (!customElements.get('attention-lab')) customElements.define('attention-lab', AttentionLabElement);
listenForFrameHeights();
