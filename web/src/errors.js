// Routes an error from the core to the control that caused it. The core's
// messages start with the argument's name ("noise: expected ..."); each
// section says which parameter feeds which argument. An error no control
// owns is shown in the section's own slot. The page keeps the last good
// drawing and goes on.
import { t } from './i18n/index.js';

export function argumentOf(message) {
  const match = /^([\w.[\]]+)\s*:/.exec(message);
  return match ? match[1].replace(/\.length$|\[.*$/, '') : null;
}

export function createErrorScope(controls, sectionSlot) {
  const owned = new Set();

  function show(parameter, message) {
    const text = t('error.core', { message });
    if (parameter && controls.showError(parameter, text)) {
      owned.add(parameter);
      return;
    }
    sectionSlot.textContent = text;
    sectionSlot.hidden = false;
  }

  return {
    // Clears what this scope showed last time, before a fresh computation.
    clear() {
      for (const parameter of owned) controls.clearError(parameter);
      owned.clear();
      sectionSlot.hidden = true;
      sectionSlot.textContent = '';
    },
    // Runs one core call; on failure shows the message and returns undefined.
    run(compute, argumentToParameter = {}) {
      try {
        return compute();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        show(argumentToParameter[argumentOf(message)] ?? null, message);
        return undefined;
      }
    },
  };
}
