// The names of the core's files beside the page's script: each part of the
// core (wasm/attention-core.mjs: the cues, the basics, the models) as a wasm file,
// fetched over http, and as a classic script carrying the same bytes in
// base64 under a global, for a page opened from disk. The build writes
// them (web/build-steps/core-parts.mjs); the page loads them
// (core-wasm-file.js).
// In the order a page may need them: each part's API has every function of
// the one before (the cues' are the basics' first section's; the whole core
// is the basics and the models).
export const CORE_PARTS = Object.freeze(['cues', 'basics', 'models']);

// The part a section computes with: its declaration's corePart, else the basics.
export const corePartOf = (section) => section.corePart ?? 'basics';
// The part a mount loads first for a section: the models only ever come after the basics.
export const firstCorePart = (section) => (corePartOf(section) === 'models' ? 'basics' : corePartOf(section));
// Whether a core holding `held` lacks what `part` has.
export const lacks = (held, part) => CORE_PARTS.indexOf(held) < CORE_PARTS.indexOf(part);

export const coreWasmFile = (part) => `attention-core-${part}.wasm`;
export const coreScriptFile = (part) => `attention-core-${part}-wasm.js`;
export const coreScriptGlobal = (part) => `attentionLabCore${part[0].toUpperCase()}${part.slice(1)}Wasm`;

// The script of the worker the models train in (run/training-worker.js), given the parts compiled.
export const TRAINING_WORKER_FILE = 'training-worker.js';

// Every one of them: what a copy of the page must carry beside app.js.
export const CORE_PAGE_FILES = Object.freeze([...CORE_PARTS.flatMap((part) => [coreWasmFile(part), coreScriptFile(part)]), TRAINING_WORKER_FILE]);
