// The training worker's whole script as text, where the page cannot load it
// from a file beside it: the page opened from disk (a browser refuses a
// worker's file:// URL) and the <attention-lab> element (one file). The build
// puts the text in those bundles (web/build-steps/core-parts.mjs); over http
// it stays null, and the worker is training-worker.js, beside app.js.
/** @type {string | null} */
const TRAINING_WORKER_SOURCE = null;
export default TRAINING_WORKER_SOURCE;
