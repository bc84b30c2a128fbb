// @ts-check
// The placeholder of an <attention-lab> element before its code arrives:
// CSS the element's loader adds to the course page (element-loader.js), on
// the element while it is not yet defined. It says what is coming (the
// lab's name, the section's title and "loading", in the element's
// language) and is as tall as the section will be when first drawn, so the
// course page does not jump: each section's height in each language, at
// each band of the element's width (the element's own layout breakpoints,
// element-host.css), measured by tests/browser/element-heights.mjs into
// element-heights.js. Once defined, the element keeps that height until it
// is drawn (element.js).

// The element's layout bands, widest first: up to maxWidth (px, the
// @container breakpoints of web/styles/element-host.css), measured at measuredAt.
export const PLACEHOLDER_BANDS = Object.freeze([
  { maxWidth: null, measuredAt: 1100 },
  { maxWidth: 900, measuredAt: 800 },
  { maxWidth: 700, measuredAt: 600 },
  { maxWidth: 520, measuredAt: 360 },
]);

// The section an element naming none (or none the lab has) shows.
export const DEFAULT_ELEMENT_SECTION = 'pooling';

// A string as CSS writes it in `content`: quoted, with line breaks as \A.
/** @param {string} text */
const cssString = (text) => `"${text.replace(/[\\"]/g, (character) => `\\${character}`).replace(/\n/g, '\\A ')}"`;

/**
 * @param {object} options
 * @param {readonly string[]} options.languages the page's languages, the default first
 * @param {Record<string, Record<string, string>>} options.titles each section's title in each language
 * @param {Record<string, Record<string, readonly number[]>>} options.heights each measured
 *   section's heights (px) in each language, one a band, as PLACEHOLDER_BANDS (a
 *   section not measured yet takes the default section's)
 * @param {Record<string, { name: string, loading: string, failed: string }>} options.words
 *   in each language: the lab's name, and what is said while loading and when loading failed
 * @returns {string}
 */
export function placeholderCss({ languages, titles, heights, words }) {
  const [defaultLanguage] = languages;
  // A section's own rules, or (for the default section) those of an element
  // naming none, or one no section has: attention-lab without [section=...].
  // In a language other than the default: the element's or its page's,
  // unless its own attribute names another.
  /** @type {(id: string, language: string) => string} */
  const target = (id, language) => {
    const section = id === DEFAULT_ELEMENT_SECTION ? '' : `[section="${id}"]`;
    const inLanguage = language === defaultLanguage ? ''
      : `:is(:lang(${language}),[language="${language}"]):not([language]:not([language="${language}"]))`;
    return `attention-lab${section}${inLanguage}:not(:defined)`;
  };
  const rules = [
    'attention-lab:not(:defined){display:block;container-type:inline-size}',
    'attention-lab:not(:defined)::before{display:block;box-sizing:border-box;padding:32px 16px;'
      + 'border:1px dashed GrayText;border-radius:8px;color:CanvasText;font:16px/1.6 system-ui,sans-serif;'
      + 'text-align:center;white-space:pre-line;overflow:hidden}',
  ];
  const sections = Object.keys(titles);
  for (const language of languages) {
    const { name, loading, failed } = words[language];
    for (const id of sections) {
      rules.push(`${target(id, language)}::before{content:${cssString(`${name}\n${titles[id][language]}\n${loading}`)}}`);
      // The failure's own words follow (element-loader.js writes them into the attribute).
      rules.push(`${target(id, language)}[data-load-failed]::before{content:${cssString(`${name}\n${titles[id][language]}\n${failed} `)} attr(data-load-failed)}`);
    }
  }
  PLACEHOLDER_BANDS.forEach(({ maxWidth }, band) => {
    const sized = languages.flatMap((language) => sections.map((id) => {
      const height = (heights[id] ?? heights[DEFAULT_ELEMENT_SECTION])[language][band];
      return `${target(id, language)}::before{height:${height}px}`;
    }));
    rules.push(maxWidth === null ? sized.join('') : `@container (max-width:${maxWidth}px){${sized.join('')}}`);
  });
  return rules.join('\n');
}
