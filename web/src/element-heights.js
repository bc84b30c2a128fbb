// Written by tests/browser/element-heights.mjs --write: do not edit by hand.
// Each section's height (px) as an <attention-lab> element first draws it
// (defaults, exercises on, nothing opened), in each language, at each band's
// measuredAt width (element-placeholder.js: PLACEHOLDER_BANDS, widest first).
export const ELEMENT_HEIGHTS = Object.freeze({
  'cues': { en: [2476, 3860, 4103, 5187], zh: [2199, 3531, 3777, 4382] },
  'data': { en: [1775, 1712, 2460, 2855], zh: [1600, 1492, 2286, 2397] },
  'pooling': { en: [3016, 2980, 3749, 4597], zh: [2639, 2587, 3487, 3764] },
  'heatmap': { en: [2113, 3041, 3267, 3743], zh: [1810, 2636, 3051, 3072] },
  'training': { en: [3974, 5774, 6078, 7174], zh: [3560, 5254, 5668, 6181] },
  'pipeline': { en: [2072, 2408, 3300, 3798], zh: [1784, 2162, 2998, 3198] },
  'masking': { en: [2163, 3485, 3950, 4744], zh: [1998, 3153, 3764, 4165] },
  'scoring': { en: [4449, 5576, 6066, 7407], zh: [4074, 5038, 5583, 6206] },
  'self-attention': { en: [6438, 8453, 8549, 11523], zh: [5615, 7182, 7440, 9030] },
  'translation': { en: [5027, 6568, 6618, 8753], zh: [4427, 5677, 5758, 7209] },
  'multihead': { en: [2995, 3834, 4550, 6357], zh: [2773, 3566, 4135, 5644] },
  'positional': { en: [2168, 3186, 3519, 4039], zh: [1986, 2936, 3333, 3395] },
  'attention-training': { en: [4497, 5836, 6971, 8933], zh: [4093, 5292, 6354, 7713] },
});
