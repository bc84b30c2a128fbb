// The TypeScript declarations of the <attention-lab> element, written from
// the page's own tables so that they cannot drift: the sections of the
// registry, the parameters of the state table (their names, types, ranges
// and defaults, for editors to show), their attribute spellings, and the
// element's events. Copied into the npm package beside attention-lab-element.js.
import { parameters } from '../src/state.js';
import { SECTION_IDS } from '../src/sections/registry.js';
import { SPELLINGS } from '../src/element-attributes.js';
import { HEIGHT_MESSAGE, PROGRESS_MESSAGE } from '../src/embed.js';

const quote = (value) => JSON.stringify(value);

function valueType(spec) {
  if (spec.type === 'choice') return spec.options.map(quote).join(' | ');
  if (spec.type === 'boolean') return 'boolean';
  return 'number';
}

function describe(spec) {
  const range = spec.min !== undefined ? ` in [${spec.min}, ${spec.max}]` : '';
  const kind = { integer: 'a whole number', number: 'a number', boolean: 'true or false', choice: 'one of the options' }[spec.type];
  return `${kind}${range}; default ${quote(spec.default)}`;
}

export function elementTypes() {
  const entries = Object.entries(parameters);
  const state = entries.map(([name, spec]) => `  /** ${describe(spec)} */\n  readonly ${name}: ${valueType(spec)};`);
  // The element's own attributes are written out below; language is also a parameter.
  const own = new Set(['language']);
  const attributes = entries.filter(([name]) => !own.has(name)).flatMap(([name, spec]) => {
    const { documented, alias } = SPELLINGS.get(name);
    const doc = `  /** ${name}: ${describe(spec)}. Read as in the URL hash: clamped, or ignored when malformed. */`;
    return [`${doc}\n  ${quote(documented)}?: string;`, ...(alias ? [`  /** The same as ${quote(documented)} (HTML lower-cases attribute names). */\n  ${quote(alias)}?: string;`] : [])];
  });
  return `// The <attention-lab> element (attention-lab-element.js), generated from
// the lab's state table and section registry. Import it for its side effect:
//   import 'attention-lab/element';
// then write <attention-lab section="pooling" w="2"></attention-lab>.
import type { AttentionBasics, AttentionCore, AttentionCues } from './attention-core.js';

/** A section of the lab, as the element's \`section\` attribute and the iframe mode's \`embed\` name it. */
export type SectionId = ${SECTION_IDS.map(quote).join(' | ')};

/** The element's state: every parameter of the lab's table. */
export interface AttentionLabState {
${state.join('\n')}
}

/** The element's attributes (all strings, as HTML gives them). */
export interface AttentionLabAttributes {
  /** The section to show (default "pooling"). */
  section?: SectionId;
  /** Comma-separated: parameter names and button actions to hide, or controls, export, text, numbers. */
  hide?: string;
  /** en or zh (else the page's <html lang>, else the browser's). */
  language?: 'en' | 'zh';
  /** The section's title in the course's own words (plain text, at most 120 characters). */
  heading?: string;
  /** The exercises: shown (on, the default), hidden (off), or shown with every answer and the teacher's note (answers). */
  exercises?: 'on' | 'off' | 'answers';
${attributes.join('\n')}
}

export interface AttentionLabElement extends HTMLElement {
  /** A copy of the element's current state. */
  readonly state: Partial<AttentionLabState>;
  /**
   * The core's API once the element has drawn (one instance per page), else
   * null: the part its section computes with (the cues' for section="cues",
   * the whole core for the trained models' sections, else the basics).
   */
  readonly core: AttentionCues | AttentionBasics | AttentionCore | null;
  /** Resolves to the element once its section is drawn. */
  ready: Promise<AttentionLabElement>;
}

/** What the iframe mode (index.html#embed=...) posts to its parent page whenever its height changes. */
export interface AttentionLabHeightMessage {
  type: ${quote(HEIGHT_MESSAGE)};
  section: SectionId;
  /** The content's height in CSS pixels, a whole number. */
  height: number;
}

/** An exercise's status: not tried, tried and not right (wrong, close), right, or its answer shown. */
export type ExerciseStatus = 'open' | 'wrong' | 'close' | 'right' | 'revealed';

/** The detail of an \`attention-lab:progress\` event, fired whenever a learner's exercise changes (checked, shown, tried anew, reset). */
export interface AttentionLabProgress {
  section: SectionId;
  /** The exercise's id within its section (its element carries data-exercise="<section>.<exercise>"). */
  exercise: string;
  status: ExerciseStatus;
  /** The tries made on the exercise's current instance. */
  attempts: number;
  /** The section's score so far: exercises right, exercises finished (right or answer shown), and all of them. */
  score: { right: number; finished: number; total: number };
}

/** What the iframe mode posts to its parent page on every change of progress (the same object, with its type). */
export interface AttentionLabProgressMessage extends AttentionLabProgress {
  type: ${quote(PROGRESS_MESSAGE)};
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLabElement;
  }
  interface HTMLElementEventMap {
    /** Fired (bubbling, composed) once the element's section is drawn; it then carries data-ready. */
    'attention-lab:ready': CustomEvent<null>;
    /** Fired (bubbling, composed) whenever a learner's exercise changes. */
    'attention-lab:progress': CustomEvent<AttentionLabProgress>;
  }
}
`;
}
