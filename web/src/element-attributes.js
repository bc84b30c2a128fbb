// The <attention-lab> element's attributes for the parameters of the table
// (state.js). HTML lower-cases attribute names, so a parameter named in
// camel case (leaveOneOut) can be written two ways: its documented
// attribute, in kebab case (leave-one-out), and its name lower-cased
// (leaveoneout: also what HTML makes of leaveOneOut), accepted as an alias.
// A one-word name (n, kernel) has one spelling. Given both spellings, the
// documented one gives the value, whatever the order of the attributes, and
// the element warns naming both (conflictWarning).
import { parameters } from './state.js';

const kebabCase = (name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

// parameter -> { documented, alias }: alias null when the name is one word.
export const SPELLINGS = new Map(Object.keys(parameters).map((name) => {
  const documented = kebabCase(name);
  const alias = name.toLowerCase();
  return [name, { documented, alias: alias === documented ? null : alias }];
}));

// attribute name -> parameter, for both spellings.
export const ATTRIBUTE_PARAMETERS = new Map([...SPELLINGS].flatMap(([name, { documented, alias }]) =>
  (alias ? [[documented, name], [alias, name]] : [[documented, name]])));

// Which attribute gives `parameter` its value, with getAttribute(name) ->
// string | null: { attribute, value } (attribute null when neither spelling
// is there), and `conflict` when both are: { parameter, documented, alias }.
export function attributeOf(parameter, getAttribute) {
  const { documented, alias } = SPELLINGS.get(parameter);
  const documentedValue = getAttribute(documented);
  const aliasValue = alias ? getAttribute(alias) : null;
  const conflict = documentedValue !== null && aliasValue !== null ? { parameter, documented, alias } : null;
  if (documentedValue !== null) return { attribute: documented, value: documentedValue, conflict };
  if (aliasValue !== null) return { attribute: alias, value: aliasValue, conflict };
  return { attribute: null, value: null, conflict };
}

// Every parameter the attributes name: { values: { parameter: raw text },
// conflicts: [...] }, each parameter once, by the attribute that wins.
export function parameterAttributes(getAttribute) {
  const values = {};
  const conflicts = [];
  for (const parameter of SPELLINGS.keys()) {
    const { attribute, value, conflict } = attributeOf(parameter, getAttribute);
    if (attribute !== null) values[parameter] = value;
    if (conflict) conflicts.push(conflict);
  }
  return { values, conflicts };
}

// The console's warning for a parameter given under both spellings: names
// both attributes with their values and says which one is used.
export function conflictWarning({ parameter, documented, alias }, getAttribute) {
  const quoted = (name) => `${name}="${String(getAttribute(name)).slice(0, 64)}"`;
  return `<attention-lab>: ${quoted(documented)} and ${quoted(alias)} both set the parameter ${parameter}; ` +
    `the documented spelling ${documented} is used and ${alias} is ignored. Keep one of them.`;
}

// The console's warning for an attribute whose text is no value of its
// parameter: the parameter then takes its default (whatever it had before),
// as a hash's malformed value does, so the same attributes always give the
// same state.
export function malformedWarning(attribute, text, parameter) {
  return `<attention-lab>: ${attribute}="${String(text).slice(0, 64)}" is not a value of ${parameter}; ` +
    `its default, ${parameters[parameter].default}, is used.`;
}
