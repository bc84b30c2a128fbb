// The core's calls that train a model: the ones the page makes off its
// thread, in the training worker (run/off-thread-training.js).
export const TRAINING_CALLS = Object.freeze(['attentionModelTrain', 'seq2seqTrain']);
