// A setting as the section's controls name it and its value: "d = 64",
// "Positions: Learned", "Causal mask: on". Read from the controls inside
// `root` (the label a learner sees, in the page's language), the name
// itself where no control shows it.
import { t } from './i18n/index.js';

/** @param {ParentNode | null | undefined} root @param {string} name @param {unknown} value */
export function settingText(root, name, value) {
  const control = root?.querySelector(`[data-param="${CSS.escape(name)}"]`);
  const label = control?.querySelector('.control-label')?.textContent.trim() || name;
  let shown = String(value);
  if (typeof value === 'boolean') shown = t(value ? 'exercises.settingOn' : 'exercises.settingOff');
  else if (typeof value === 'string') shown = control?.querySelector(`[data-value="${CSS.escape(value)}"]`)?.textContent.trim() || value;
  return t('exercises.setting', { name: label, value: shown });
}
