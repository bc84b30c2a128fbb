// The page's one link to the C++ core: loads each part of the WebAssembly
// core once (shared by every section) and shows the loading indicator while
// the page waits for it. The basics come first (everything the first screen
// computes); the whole core, with the trainable models, is asked for when a
// section needs it (mount.js: a declaration's needsModels).
import { loadAttentionBasics, loadAttentionCore } from '../../wasm/attention-core.mjs';

async function shown(indicator, load) {
  indicator?.setAttribute('data-state', 'loading');
  try {
    const core = await load();
    indicator?.setAttribute('data-state', 'ready');
    return core;
  } catch (error) {
    indicator?.setAttribute('data-state', 'failed');
    throw error;
  }
}

// The basics, with the indicator showing meanwhile: the page waits for them.
export function loadCore(indicator) {
  return shown(indicator, loadAttentionBasics);
}

// The whole core. Loaded while the learner reads, so the indicator stays as
// it is unless the load fails.
export async function loadWholeCore(indicator) {
  try {
    return await loadAttentionCore();
  } catch (error) {
    indicator?.setAttribute('data-state', 'failed');
    throw error;
  }
}
