// The page's one link to the C++ core: loads each part of the WebAssembly
// core once (shared by every section) and shows the loading indicator while
// the page waits for the first. Which part comes when: section-loading.js,
// by each declaration's corePart.
import { loadAttentionBasics, loadAttentionCore, loadAttentionCues } from '../../wasm/attention-core.mjs';

// Each part's API: the models' is the whole core (the basics with them).
const LOADERS = Object.freeze({ cues: loadAttentionCues, basics: loadAttentionBasics, models: loadAttentionCore });

// first: the page waits for it, so the indicator shows meanwhile; a later
// part loads while the learner reads, so the indicator changes only if it fails.
export async function loadCorePart(part, indicator, { first }) {
  if (first) indicator?.setAttribute('data-state', 'loading');
  try {
    const core = await LOADERS[part]();
    if (first) indicator?.setAttribute('data-state', 'ready');
    return core;
  } catch (error) {
    indicator?.setAttribute('data-state', 'failed');
    throw error;
  }
}
