// The page's one link to the C++ core: loads the WebAssembly module once
// (shared by every section) and shows the loading indicator meanwhile.
import { loadAttentionCore } from '../../wasm/attention-core.mjs';

export async function loadCore(indicator) {
  indicator?.setAttribute('data-state', 'loading');
  try {
    const core = await loadAttentionCore();
    indicator?.setAttribute('data-state', 'ready');
    return core;
  } catch (error) {
    indicator?.setAttribute('data-state', 'failed');
    throw error;
  }
}
