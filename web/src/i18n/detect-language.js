// The language the browser asks for: zh, zh-CN, zh-Hans... -> Chinese;
// anything else -> English. A module of its own: the page's first script
// (boot.js) loads that language's catalogue before anything else needs it.
export function detectLanguage(preferred = globalThis.navigator?.languages ?? []) {
  const first = [...preferred].find((tag) => typeof tag === 'string' && tag.length > 0) ?? 'en';
  return first.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

// The language around an element of a course page: its own or nearest
// ancestor's lang (zh..., en...), else the browser's.
export function languageAround(element) {
  const lang = element.closest('[lang]')?.getAttribute('lang') ?? '';
  if (/^zh\b/i.test(lang)) return 'zh';
  if (/^en\b/i.test(lang)) return 'en';
  return detectLanguage();
}
