// Where a section's topic stands in Dive into Deep Learning, in both books:
// the English one at d2l.ai (chapter 11) and the Chinese one at zh.d2l.ai
// (chapter 10). Each section's declaration names its subsection in each
// (`book`). A link names the subsection as its book numbers and titles it
// (book data, not the page's text: it keeps its book's language whatever
// the page speaks). An anchor is an id the book's HTML has: the English
// book's headings (Sphinx's ids from their titles) and the Chinese book's
// labels (:label:`subsec_x` -> #subsec-x); a Chinese heading has no stable
// id, so such a link goes to its section's page.
export const BOOKS = Object.freeze({
  en: { origin: 'https://d2l.ai', chapter: 'chapter_attention-mechanisms-and-transformers' },
  zh: { origin: 'https://zh.d2l.ai', chapter: 'chapter_attention-mechanisms' },
});

/**
 * A subsection: the book's page (file name), anchor (or null), number and title.
 * @typedef {{ page: string, anchor: string | null, number: string, title: string }} BookSubsection
 * @typedef {{ en: BookSubsection, zh: BookSubsection }} BookSubsections a subsection in each book
 */
/** @type {(page: string, anchor: string | null, number: string, title: string) => BookSubsection} */
export const bookSubsection = (page, anchor, number, title) => Object.freeze({ page, anchor, number, title });

// The address of a subsection (a declaration's book.en or book.zh) in its book ('en' or 'zh').
export function bookAddress(subsection, book) {
  const { origin, chapter } = BOOKS[book];
  return `${origin}/${chapter}/${subsection.page}.html${subsection.anchor ? `#${subsection.anchor}` : ''}`;
}
