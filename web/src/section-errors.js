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
import { getLanguage, t } from './i18n/index.js';

// The language the core words its errors in.
const CORE_LANGUAGE = 'en';

export function parameterOf(error, { inputs = [], arguments: routes = {} }, values = {}) {
  const argument = error?.argument;
  if (typeof argument !== 'string') return null;
  let route = Object.hasOwn(routes, argument) ? routes[argument] : undefined;
  if (typeof route === 'function') route = route(values);
  if (Array.isArray(route)) return Number.isInteger(error.index) ? route[error.index] ?? null : null;
  if (typeof route === 'string' || route === null) return route;
  return inputs.includes(argument) ? argument : null;
}

// Which sentence tells the error, by the fields it carries (never by its text).
function errorKind(error) {
  if (typeof error?.argument !== 'string') return 'error.kind.other';
  if (!error.got) return 'error.kind.argument';
  return Number.isInteger(error.index) ? 'error.kind.valueAt' : 'error.kind.value';
}

// The error in the page's language: the section's explanation when it has
// one; else, on a page in the core's language, the core's own message; in
// another language a sentence for the error's kind, built from its fields,
// with the core's words beside it (what was expected is only in them).
export function describeError(error, explanation) {
  if (typeof explanation === 'string') return t('error.core', { message: explanation });
  const detail = String(error?.message ?? error);
  if (getLanguage() === CORE_LANGUAGE) return t('error.core', { message: detail });
  const fields = { argument: error?.argument, got: error?.got, index: error?.index };
  return t('error.core', { message: t('error.detail', { sentence: t(errorKind(error), fields), detail }) });
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
    // Runs one core call; on failure shows the error and returns undefined
    // (a call made off the page's thread: its promise resolves to it).
    run(compute, values) {
      try {
        const result = compute();
        if (typeof result?.then !== 'function') return result;
        return result.then((value) => value, (error) => {
          show(error, values);
          return undefined;
        });
      } catch (error) {
        show(error, values);
        return undefined;
      }
    },
  };
}
