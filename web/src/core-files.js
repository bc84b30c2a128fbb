// The names of the core's files beside the page's script: each part of the
// core (wasm/attention-core.mjs: the basics, the models) as a wasm file,
// fetched over http, and as a classic script carrying the same bytes in
// base64 under a global, for a page opened from disk. The build writes
// them (web/build-steps/core-parts.mjs); the page loads them
// (core-wasm-file.js).
export const CORE_PARTS = Object.freeze(['basics', 'models']);

export const coreWasmFile = (part) => `attention-core-${part}.wasm`;
export const coreScriptFile = (part) => `attention-core-${part}-wasm.js`;
export const coreScriptGlobal = (part) => `attentionLabCore${part[0].toUpperCase()}${part.slice(1)}Wasm`;

// The script of the worker the models train in (run/training-worker.js), given the parts compiled.
export const TRAINING_WORKER_FILE = 'training-worker.js';

// Every one of them: what a copy of the page must carry beside app.js.
export const CORE_PAGE_FILES = Object.freeze([...CORE_PARTS.flatMap((part) => [coreWasmFile(part), coreScriptFile(part)]), TRAINING_WORKER_FILE]);
