// The language the browser asks for: zh, zh-CN, zh-Hans... -> Chinese;
// anything else -> English. A module of its own: the page's first script
// (boot.js) loads that language's catalogue before anything else needs it.
export function detectLanguage(preferred = globalThis.navigator?.languages ?? []) {
  const first = [...preferred].find((tag) => typeof tag === 'string' && tag.length > 0) ?? 'en';
  return first.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
