// Shows a core error next to the control that caused it. The core's errors
// carry fields (argument, index, expected, got): a section routes them by
// those, never by parsing the message. The route comes from the section's
// declaration: an argument named like one of its inputs belongs to that
// input; `arguments` names the others (a parameter, a list indexed by the
// error's index, a function of the inputs giving either, or null for "no
// control"). An error no control owns is shown in the section's own slot.
// A section may explain an error in the page's language itself (its
// `explain(error, inputs, core)`, by the error's fields); otherwise the text
// is built from the fields, which name the core's own wording. The page
// keeps the last good drawing, marked as out of date (mount.js), and goes on.
import { t } from './i18n/index.js';

export function parameterOf(error, { inputs = [], arguments: routes = {} }, values = {}) {
  const argument = error?.argument;
  if (typeof argument !== 'string') return null;
  let route = Object.hasOwn(routes, argument) ? routes[argument] : undefined;
  if (typeof route === 'function') route = route(values);
  if (Array.isArray(route)) return Number.isInteger(error.index) ? route[error.index] ?? null : null;
  if (typeof route === 'string' || route === null) return route;
  return inputs.includes(argument) ? argument : null;
}

// The error in the page's language: the section's explanation when it has
// one, else from the error's fields where it has them.
export function describeError(error, explanation) {
  if (typeof explanation === 'string') return t('error.core', { message: explanation });
  if (typeof error?.argument !== 'string' || typeof error.expected !== 'string') {
    return t('error.core', { message: String(error?.message ?? error) });
  }
  const key = !error.got ? 'error.expected' : Number.isInteger(error.index) ? 'error.gotAt' : 'error.got';
  return t('error.core', { message: t(key, error) });
}

// `routes`: the section's declaration (or any { inputs, arguments, explain });
// `slot`: where errors no control owns are shown; `core`: handed to explain().
export function createErrorRouter({ controls, slot, routes, core = null }) {
  const owned = new Set();

  function show(error, values) {
    const text = describeError(error, routes.explain?.(error, values, core));
    const parameter = parameterOf(error, routes, values);
    if (parameter && controls.showError(parameter, text)) {
      owned.add(parameter);
      return;
    }
    slot.textContent = text;
    slot.hidden = false;
  }

  return {
    show,
    // Clears what this router showed, before a fresh computation.
    clear() {
      for (const parameter of owned) controls.clearError(parameter);
      owned.clear();
      slot.hidden = true;
      slot.textContent = '';
    },
    // Runs one core call; on failure shows the error and returns undefined.
    run(compute, values) {
      try {
        return compute();
      } catch (error) {
        show(error, values);
        return undefined;
      }
    },
  };
}
