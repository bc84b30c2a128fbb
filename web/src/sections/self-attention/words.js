// The words of the self-attention section: the course notes' sentence
// 她正在吃一个绿色的苹果, each word a hand-built vector whose components are
// parameters of the page's table (state.js, sa<Word><Feature>), and the
// English translation whose words ask the questions in the cross-attention
// example. The vectors are hand-made for reading, not learned: a component
// says how much of a feature (person, action, food, colour, grammar) the
// word has.
import { parameters, SA_FEATURES } from '../../state.js';

// One entry per word, in sentence order: its token, the catalogue key of its
// English gloss, and its components' parameters in the order of SA_FEATURES.
export const WORDS = Object.freeze([
  { token: '她', glossKey: 'self-attention.gloss.she', parameters: ['saShePerson', 'saSheAction', 'saSheFood', 'saSheColour', 'saSheGrammar'] },
  { token: '正在', glossKey: 'self-attention.gloss.is', parameters: ['saIsPerson', 'saIsAction', 'saIsFood', 'saIsColour', 'saIsGrammar'] },
  { token: '吃', glossKey: 'self-attention.gloss.eating', parameters: ['saEatPerson', 'saEatAction', 'saEatFood', 'saEatColour', 'saEatGrammar'] },
  { token: '一个', glossKey: 'self-attention.gloss.a', parameters: ['saAPerson', 'saAAction', 'saAFood', 'saAColour', 'saAGrammar'] },
  { token: '绿色的', glossKey: 'self-attention.gloss.green', parameters: ['saGreenPerson', 'saGreenAction', 'saGreenFood', 'saGreenColour', 'saGreenGrammar'] },
  { token: '苹果', glossKey: 'self-attention.gloss.apple', parameters: ['saApplePerson', 'saAppleAction', 'saAppleFood', 'saAppleColour', 'saAppleGrammar'] },
]);

export const WORD_COUNT = WORDS.length;
export const FEATURE_COUNT = SA_FEATURES.length;
export const VECTOR_PARAMETERS = WORDS.flatMap((word) => word.parameters);

// The sentence as a matrix X (words x features, row-major), gathered from the
// state: the inputs of the core's call, not a computation.
export const sentenceMatrix = (state) => Float64Array.from(VECTOR_PARAMETERS, (name) => state[name]);

// Every component back to its built-in value (the reset button).
export const builtInVectors = () => Object.fromEntries(VECTOR_PARAMETERS.map((name) => [name, parameters[name].default]));

// The cross-attention example: the English translation "she eats a green
// apple" asks (queries) over the Chinese sentence (keys and values), as a
// translation decoder does. The English words are a sequence of their own,
// with hand-made vectors of their own on the same five features: English
// marks grammar Chinese leaves out (the -s of eats, the article a, she as a
// subject), and "eats" says less of the food than 吃 carries here. So no row
// of the cross-attention equals a row of the self-attention: two sequences,
// not one. `source`: the Chinese word each translates (正在 has none).
export const TRANSLATION = Object.freeze([
  { word: 'she', source: 0, vector: [2, 0, 0, 0, 1] },
  { word: 'eats', source: 2, vector: [0.5, 2, 1, 0, 1] },
  { word: 'a', source: 3, vector: [0, 0, 0, 0, 1] },
  { word: 'green', source: 4, vector: [0, 0, 0.5, 2, 0] },
  { word: 'apple', source: 5, vector: [0, 0, 2, 1, 0.5] },
]);

export const translationQueries = () => Float64Array.from(TRANSLATION.flatMap(({ vector }) => vector));
