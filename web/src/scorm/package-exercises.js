// The exercises a package holds: every exercise of its sections, named as
// the progress store names them ("<section>.<id>"), in the registry's
// order. Computed from the sections' declarations when the page runs, never
// a count written down: sections gain exercises.
export const exerciseNames = (sections) =>
  sections.flatMap(({ id, exercises = [] }) => exercises.map((exercise) => `${id}.${exercise.id}`));

// The package's predictions, named likewise: one try each, so an entry the
// LMS holds for one is read as its check left it (suspend-data-storage.js).
export const predictionNames = (sections) =>
  sections.flatMap(({ id, exercises = [] }) => exercises.filter(({ kind }) => kind === 'predict').map((exercise) => `${id}.${exercise.id}`));
