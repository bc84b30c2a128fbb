// A lead paragraph that quotes live settings ("learning rate {lr}"): its
// placeholders are filled from the section's inputs each time the section
// draws, which it also does on a language switch, so the lead never quotes
// a value the controls no longer hold.
import { t } from '../../i18n/index.js';
import { setRichText } from '../../i18n/rich-text.js';

// frame: the section's frame (shared/frame.js); key: one of its leadKeys.
// Returns fill(params), to call from the section's draw.
export function liveLead(frame, key) {
  const paragraph = frame.root.querySelector(`[data-i18n-rich="${key}"]`);
  // Out of the language switch's reach (translateTree): it would write the
  // template back with its placeholders unfilled.
  delete paragraph.dataset.i18nRich;
  paragraph.dataset.liveLead = key;
  return (params) => setRichText(paragraph, t(key, params));
}
