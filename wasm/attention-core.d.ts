// Types of the JS API (attention-core.mjs): what docs/js-api.md
// documents, for editors and for TypeScript course sites. Checked by
// tests/package (a consumer example type-checks, and wrong calls must not).

/** Numbers in: a Float64Array, a plain array, or any typed array but a BigInt one. Matrices row-major. */
export type Numbers = ArrayLike<number>;
/** Valid lengths: null (no mask), one per batch item, or one per query row (batch x nq, flattened). */
export type ValidLengths = ArrayLike<number> | null;
/** Token ids in [0, vocab), batch x length of them. */
export type Tokens = ArrayLike<number>;

export type Kernel = 'gaussian' | 'boxcar' | 'constant' | 'triangular' | 'epanechnikov';
export type Optimizer = 'adam' | 'sgd';
export type AttentionTask = 'reverse' | 'sort' | 'shift' | 'lookup';

export interface DatasetOptions { n?: number; seed?: number; noise?: number; xMax?: number }
export interface Dataset { x: Float64Array; y: Float64Array }
export interface KernelOptions { kernel?: Kernel; w?: number }
export interface WeightsOptions extends KernelOptions {
  /** A Float64Array of nq x nk to write the weights into (and return), reused across redraws. */
  out?: Float64Array | null;
}
export interface KernelWidthTrainingOptions { w0?: number; lr?: number; epochs?: number; leaveOneOut?: boolean }
export interface KernelWidthTraining {
  /** epochs + 1 widths, the first w0. */
  w: Float64Array;
  /** The loss of each epoch, measured before its step. */
  loss: Float64Array;
  /** null, or why the run stopped early (w or the loss stopped being finite). */
  stopReason: string | null;
}
export interface LeaveOneOutOptions { leaveOneOut?: boolean }
export interface LossAndGradient { loss: number; gradient: number }
/** [batch, nq, nk] */
export type ScoresShape = readonly [number, number, number];
export interface MaskedScores { maskedScores: Float64Array; masked: Uint8Array; rowLengths: Int32Array }
export interface AttentionResult { output: Float64Array; weights: Float64Array; scores: Float64Array }
export interface AdditiveAttentionArguments {
  queries: Numbers; keys: Numbers; values: Numbers;
  shape: { batch: number; nq: number; nk: number; dq: number; dk: number; dv: number; h: number };
  Wq: Numbers; Wk: Numbers; wv: Numbers;
  validLens: ValidLengths;
}
export interface DotProductAttentionArguments {
  queries: Numbers; keys: Numbers; values: Numbers;
  shape: { batch: number; nq: number; nk: number; d: number; dv: number };
  validLens: ValidLengths;
}
export interface BatchMatrixProductOptions {
  /** [n, a, b] */
  shapeX: readonly [number, number, number];
  /** [n, b, c] */
  shapeY: readonly [number, number, number];
}
export interface BatchMatrixProduct { values: Float64Array; shape: [number, number, number] }
export interface MultiHeadAttentionArguments {
  queries: Numbers; keys: Numbers; values: Numbers;
  shape: { batch: number; nq: number; nk: number; hidden: number; heads: number };
  Wq: Numbers; Wk: Numbers; Wv: Numbers; Wo: Numbers;
  validLens: ValidLengths;
  /** null (every head), or one factor per head scaling its output before W_o. */
  headMask: Numbers | null;
}
export interface MultiHeadAttentionResult {
  output: Float64Array;
  /** batch x heads x nq x nk */
  weights: Float64Array;
}
export interface RandomNormalOptions { seed?: number; std?: number }
export interface RandomUniformOptions { seed?: number; low?: number; high?: number }
export interface MemoryStats { allocatedBytes: number; heapBytes: number; liveHandles: number }
export interface ScalingStudyOptions { dims?: Numbers; samples?: number; keys?: number; seed?: number }
export interface ScalingStudyRow { d: number; variance: number; scaledVariance: number; maxWeight: number; scaledMaxWeight: number }
export interface ConsistencyStudyOptions {
  sizes?: Numbers; repeats?: number; queries?: number; w?: number; noise?: number; xMax?: number; seed?: number;
}
export interface ConsistencyStudyRow { n: number; fixedError: number; growingW: number; growingError: number }

/** The positions added to the embeddings: d2l's sinusoidal encoding, a learned table (the parameter `positional`), or none. */
export type PositionalKind = 'sinusoidal' | 'learned' | 'none';
export interface AttentionModelConfig {
  vocab: number; length: number; hidden: number; heads: number; blocks: number; ffnHidden: number;
  embeddingScale: number; positional: PositionalKind; seed: number;
}
/** A trainable model: plain data, so it can be stored, copied or sent to a worker. */
export interface AttentionModel {
  config: AttentionModelConfig;
  /** Named in PyTorch's layout: embedding, positional (learned positions only), b{i}.Wq ... b{i}.Wo (with an FFN also its LayerNorms and W1, b1, W2, b2), readout, readoutBias. */
  params: Record<string, Float64Array>;
  optimizerState: { step: number; m: Float64Array | null; v: Float64Array | null };
}
export interface SequenceBatchOptions {
  /** Sequences in `tokens` (default: as many as they hold). */
  batch?: number;
  /** null, or one length per sequence in [1, length]. */
  validLens?: ValidLengths;
  /** Query i sees keys j <= i only. */
  causal?: boolean;
  /** null, or one flag per head of every block (blocks x heads): 1 switches the head off (its output zeroed before Wo). */
  headsOff?: ValidLengths;
}
export interface StepOptions extends SequenceBatchOptions { optimizer?: Optimizer; lr?: number }
export interface TaskOptions {
  task?: AttentionTask; batch?: number; length?: number; vocab?: number; seed?: number; lag?: number;
  variableLengths?: boolean;
}
export interface TaskBatch { tokens: Int32Array; targets: Int32Array; validLens: Int32Array }
export interface TrainingOptions {
  task?: AttentionTask; steps?: number; batch?: number; optimizer?: Optimizer; lr?: number; seed?: number;
  lag?: number; variableLengths?: boolean; causal?: boolean; evalEvery?: number; heldOut?: number;
  evaluateAtEnd?: boolean;
}
export interface TrainingRun {
  model: AttentionModel;
  /** The loss of each step's batch, before its step. */
  loss: Float64Array;
  /** Held-out accuracy at each global step of `evaluatedAt`. */
  accuracy: Float64Array;
  evaluatedAt: Float64Array;
  heldOutAccuracy: number | null;
  /** Why the run stopped before its steps (it diverged: the model is the last finite one), or null. */
  stopReason: string | null;
}

export type Seq2SeqTask = 'numbers-en-zh' | 'numbers-zh-en' | 'dates' | 'reverse' | 'sort';
export type Seq2SeqArchitecture = 'bahdanau' | 'transformer';
/** The decoder's attention scoring: d2l's AdditiveAttention (W_k, W_q, w_v) or scaled DotProductAttention (no parameters). */
export type Seq2SeqScoring = 'additive' | 'dot';
/** The Bahdanau translator's recurrent layers: d2l's nn.GRU, or nn.LSTM (d2l 10.4, exercise 1). */
export type Seq2SeqCell = 'gru' | 'lstm';

export interface Kinds {
  readonly optimizer: readonly Optimizer[];
  readonly attentionTask: readonly AttentionTask[];
  readonly positional: readonly PositionalKind[];
  readonly seq2seqTask: readonly Seq2SeqTask[];
  readonly seq2seqArchitecture: readonly Seq2SeqArchitecture[];
  readonly seq2seqScoring: readonly Seq2SeqScoring[];
  readonly seq2seqCell: readonly Seq2SeqCell[];
}
export interface Seq2SeqConfig {
  architecture: Seq2SeqArchitecture;
  /** The task whose vocabularies and lengths the model takes, or null for sizes given directly. */
  task: Seq2SeqTask | null;
  /** With a task: null (the task's); ids 0, 1, 2 are <pad>, <bos>, <eos>. */
  sourceVocab: number | null; targetVocab: number | null; sourceLength: number | null; targetLength: number | null;
  hidden: number;
  /** Bahdanau: embedding size, GRU layers, and Bahdanau et al.'s bidirectional encoder (hidden / 2 units each way). */
  embed: number; layers: number; bidirectional: boolean;
  /**
   * The attention's scoring, or null for the architecture's own (Bahdanau: 'additive'; Transformer: 'dot').
   * Bahdanau with 'dot' has no decoder.attention.* parameters, and scores q . k / sqrt(hidden): the bidirectional
   * encoder's keys are hidden wide too (hidden / 2 each way). The Transformer with 'additive' gives every
   * MultiHeadAttention one AdditiveAttention of hidden / heads its heads share (…attention.attention.W_k.weight,
   * W_q.weight, w_v.weight). A model's config names it.
   */
  scoring: Seq2SeqScoring | null;
  /**
   * Bahdanau's recurrent layers, encoder and decoder: 'gru', or 'lstm' (nn.LSTM's parameters under the same
   * names, four gates a unit; the decoder starts from the encoder's final (h, c) and queries with the top h).
   * The Transformer takes 'gru' only.
   */
  cell: Seq2SeqCell;
  /** Transformer: heads, FFN size, blocks of the encoder and the decoder, and the embeddings' scale (d2l: sqrt(hidden)). */
  heads: number; ffnHidden: number; blocks: number; embeddingScale: number;
  seed: number;
}
/** A translator: plain data, named as the state_dict of d2l's modules in d2l.EncoderDecoder. */
export interface Seq2SeqModel {
  config: Seq2SeqConfig;
  params: Record<string, Float64Array>;
  optimizerState: { step: number; m: Float64Array | null; v: Float64Array | null };
}
export interface Seq2SeqVocabulary {
  source: string[]; target: string[]; sourceLength: number; targetLength: number; heldOut: number;
}
/** Row-major token ids: source (batch x sourceLength), targetIn (<bos> + target, shifted) and targetOut (batch x targetLength). */
export interface Seq2SeqBatch {
  source: Tokens; sourceLens: Tokens; targetIn: Tokens; targetOut: Tokens; targetLens: Tokens;
}
export interface Seq2SeqTaskOptions { task?: Seq2SeqTask; batch?: number; seed?: number }
export interface Seq2SeqHeldOutOptions { task?: Seq2SeqTask; count?: number }
export interface Seq2SeqStepOptions { optimizer?: Optimizer; lr?: number; clip?: number }
export interface Seq2SeqTrainingOptions extends Seq2SeqStepOptions {
  task?: Seq2SeqTask; steps?: number; batch?: number; seed?: number; evalEvery?: number; heldOut?: number;
  evaluateAtEnd?: boolean;
}
export interface Seq2SeqTrainingRun {
  model: Seq2SeqModel;
  /** The mean cross-entropy per target token of each step's batch, before its step. */
  loss: Float64Array;
  /** Held-out exact match and BLEU at each global step of `evaluatedAt`. */
  accuracy: Float64Array; bleu: Float64Array; evaluatedAt: Float64Array;
  heldOutAccuracy: number | null; heldOutBleu: number | null;
  stopReason: string | null;
}
export interface Seq2SeqTranslateOptions {
  /** At most the model's targetLength (the default). */
  maxLength?: number;
  /** null: `source` is one unpadded source; else one length per padded source. */
  sourceLens?: Tokens | null;
}

/**
 * The names of the documented limits: the entries of core/contract/limits.hpp's table
 * (tests/node/contract.test.mjs checks this list against it).
 */
export type LimitName =
  | 'maxPoints' | 'maxMatrixElements' | 'maxDimension' | 'maxBatch' | 'maxEpochs' | 'maxSequence' | 'maxX'
  | 'maxNoise' | 'maxSeed' | 'maxRandomMagnitude'
  | 'maxStudyDims' | 'maxStudySamples' | 'maxStudyKeys' | 'maxStudySizes' | 'maxStudyRepeats' | 'maxStudyWidth'
  | 'maxWork' | 'maxKernelEvaluations' | 'maxTanhEvaluations' | 'maxStudyDraws'
  | 'maxVocab' | 'maxModelLength' | 'maxHeads' | 'maxBlocks' | 'maxFfnHidden' | 'maxModelBatch'
  | 'maxModelParameters' | 'maxModelActivations' | 'maxModelWork' | 'maxTrainingWork'
  | 'maxEmbeddingScale' | 'maxLearningRate' | 'maxTrainingSteps';
/** The documented limits (docs/js-api.md: "Errors and limits"). */
export type Limits = { readonly [name in LimitName]: number };

/** The default of every option of the basics, as the core's C++ option structs define them. */
export interface BasicsDefaults {
  readonly dataset: Readonly<Required<DatasetOptions>>;
  readonly kernel: Readonly<Required<KernelOptions>>;
  readonly training: Readonly<Required<KernelWidthTrainingOptions>>;
  readonly scalingStudy: Readonly<{ dims: readonly number[]; samples: number; keys: number; seed: number }>;
  readonly consistencyStudy: Readonly<{
    sizes: readonly number[]; repeats: number; queries: number; w: number; noise: number; xMax: number; seed: number;
  }>;
  readonly randomNormal: Readonly<Required<RandomNormalOptions>>;
  readonly randomUniform: Readonly<Required<RandomUniformOptions>>;
  /** d2l's value written over masked scores (-1e6). */
  readonly maskedScore: number;
}

/** The default of every option, as the core's C++ option structs define them. */
export interface Defaults extends BasicsDefaults {
  readonly attentionModel: Readonly<AttentionModelConfig>;
  readonly attentionTask: Readonly<Required<TaskOptions>>;
  readonly attentionTraining: Readonly<Required<TrainingOptions>>;
  readonly seq2seqModel: Readonly<Seq2SeqConfig>;
  readonly seq2seqTraining: Readonly<Required<Seq2SeqTrainingOptions>>;
  /** What the held-out set's seed is XORed with (attentionModelTrain's held-out sequences: seed ^ heldOutSeedMix). */
  readonly heldOutSeedMix: number;
}

/**
 * What a refused call throws: an Error whose message is
 * `<argument>: expected <expected>[, got <got>][ at index <index>]`, with the parts as fields.
 * Any other failure (the wasm heap exhausted) is an Error with `argument` undefined.
 */
/** Which row of a model's attention to take apart; block, item and head default to 0. */
export interface RowChoice {
  block?: number;
  item?: number;
  head?: number;
  /** The query position (a translator's target position). */
  query: number;
}

/**
 * One row of an attention map taken apart (core/inspection/attention_row_steps.hpp): the
 * query and keys, the scores, the mask, the softmax and the weighted sum, each
 * recomputed from the model's own forward pass. Matrices are row-major, one row a key.
 */
export interface AttentionRowSteps {
  /** 'dot': q·k/√d of the head's projections; 'additive': w_v·tanh(W_q q + W_k k). */
  scoring: 'dot' | 'additive';
  keyCount: number;
  queryDim: number;
  valueDim: number;
  /** additive: the width of W_q q (0 for dot products). */
  hidden: number;
  query: Float64Array;
  keys: Float64Array;
  values: Float64Array;
  /** additive only (empty for dot products): W_q q, W_k k_j (keyCount x hidden), tanh of their sum, w_v. */
  projectedQuery: Float64Array;
  projectedKeys: Float64Array;
  features: Float64Array;
  wV: Float64Array;
  /** dot: √d, what the products are divided by; additive: 1. */
  scale: number;
  /** Every key's score, masked or not. */
  scores: Float64Array;
  /** 1 where the query sees the key, 0 where the mask hides it. */
  visible: Int32Array;
  validLength: number;
  causal: boolean;
  /** The scores with d2l's -1e6 where masked. */
  maskedScores: Float64Array;
  /** The softmax of the masked scores: the map's row. */
  weights: Float64Array;
  /** Σ_j weights_j v_j. */
  output: Float64Array;
}

export interface AttentionCoreError extends Error {
  /** The argument, named as the caller named it: 'queries', 'shape.nk', 'shape[2] (nk)', 'options'. */
  argument?: string;
  expected?: string;
  /** What it was; '' when the error names no value. */
  got?: string;
  index?: number;
}

/**
 * The basics' API (loadAttentionBasics): every function but the trainable
 * models'; plain functions, every result owns its data (nothing to delete).
 */
export interface AttentionBasics {
  /** Every limit, the models' included. */
  readonly limits: Limits;
  readonly defaults: BasicsDefaults;
  makeDataset(options?: DatasetOptions): Dataset;
  truth(x: Numbers): Float64Array;
  sumSquaredError(predictions: Numbers, targets: Numbers): number;
  averagePool(values: Numbers, nQueries: number): Float64Array;
  attentionWeights(queries: Numbers, keys: Numbers, options?: WeightsOptions): Float64Array;
  nadarayaWatson(queries: Numbers, keys: Numbers, values: Numbers, options?: KernelOptions): Float64Array;
  trainKernelWidth(x: Numbers, y: Numbers, options?: KernelWidthTrainingOptions): KernelWidthTraining;
  lossLandscape(x: Numbers, y: Numbers, ws: Numbers, options?: LeaveOneOutOptions): Float64Array;
  kernelWidthLoss(x: Numbers, y: Numbers, w: number, options?: LeaveOneOutOptions): LossAndGradient;
  maskedSoftmax(scores: Numbers, shape: ScoresShape, validLens?: ValidLengths): Float64Array;
  maskScores(scores: Numbers, shape: ScoresShape, validLens?: ValidLengths): MaskedScores;
  additiveAttention(args: AdditiveAttentionArguments): AttentionResult;
  dotProductAttention(args: DotProductAttentionArguments): AttentionResult;
  batchMatrixProduct(X: Numbers, Y: Numbers, options: BatchMatrixProductOptions): BatchMatrixProduct;
  multiHeadAttention(args: MultiHeadAttentionArguments): MultiHeadAttentionResult;
  positionalEncoding(maxLen: number, dim: number): Float64Array;
  randomNormal(count: number, options?: RandomNormalOptions): Float64Array;
  randomUniform(count: number, options?: RandomUniformOptions): Float64Array;
  memoryStats(): MemoryStats;
  scalingStudy(options?: ScalingStudyOptions): ScalingStudyRow[];
  consistencyStudy(options?: ConsistencyStudyOptions): ConsistencyStudyRow[];
}

/**
 * The whole API (loadAttentionCore): the basics and the trainable models.
 * memoryStats() adds up the figures of both parts' modules.
 */
export interface AttentionCore extends AttentionBasics {
  readonly defaults: Defaults;
  /** The names each kind takes, in the core's order; any other is refused, naming the argument. */
  readonly kinds: Kinds;
  attentionModelInit(config?: Partial<AttentionModelConfig>): AttentionModel;
  attentionModelForward(model: AttentionModel, tokens: Tokens, options?: SequenceBatchOptions):
    { logits: Float64Array; weights: Float64Array };
  /** One row of block `block`, head `head`'s map for item `item` of the batch, taken apart step by step. */
  attentionModelRowSteps(model: AttentionModel, tokens: Tokens, options: SequenceBatchOptions | undefined, choice: RowChoice):
    AttentionRowSteps;
  attentionModelLoss(model: AttentionModel, tokens: Tokens, targets: Tokens, options?: SequenceBatchOptions):
    { loss: number; gradients: Record<string, Float64Array> };
  attentionModelStep(model: AttentionModel, tokens: Tokens, targets: Tokens, options?: StepOptions):
    { model: AttentionModel; loss: number };
  attentionModelAccuracy(model: AttentionModel, tokens: Tokens, targets: Tokens, options?: SequenceBatchOptions):
    { accuracy: number; positions: number; loss: number };
  attentionTaskBatch(options?: TaskOptions): TaskBatch;
  attentionTaskIdeal(options: TaskOptions | undefined, item: number): Float64Array;
  attentionModelTrain(model: AttentionModel, options?: TrainingOptions): TrainingRun;
  seq2seqVocabulary(task: Seq2SeqTask): Seq2SeqVocabulary;
  seq2seqInit(config?: Partial<Seq2SeqConfig>): Seq2SeqModel;
  seq2seqTaskBatch(options?: Seq2SeqTaskOptions): Seq2SeqBatch & { [key in keyof Seq2SeqBatch]: Int32Array };
  seq2seqHeldOut(options?: Seq2SeqHeldOutOptions): Seq2SeqBatch & { [key in keyof Seq2SeqBatch]: Int32Array };
  /** targetLength x sourceLength: where each target token of held-out pair `item` comes from. */
  seq2seqTaskIdeal(options: Seq2SeqHeldOutOptions | undefined, item: number): Float64Array;
  seq2seqForward(model: Seq2SeqModel, batch: Seq2SeqBatch):
    { logits: Float64Array; crossWeights: Float64Array; selfWeights: Float64Array; encoderWeights: Float64Array };
  /**
   * How far each decoder attention map follows the task's ideal alignment, on the first `count` held-out pairs
   * (teacher forcing): per map and pair, the share of each row's weight on the row's ideal source words, averaged
   * over the rows the ideal defines. `scores` is blocks x heads x count, `mean` blocks x heads (Bahdanau: 1 x 1).
   */
  seq2seqAlignment(model: Seq2SeqModel, options?: Seq2SeqHeldOutOptions):
    { scores: Float64Array; mean: Float64Array; blocks: number; heads: number; count: number };
  /** One row of the decoder's attention (query = target position) on the teacher-forced pass, taken apart. */
  seq2seqRowSteps(model: Seq2SeqModel, batch: Seq2SeqBatch, choice: RowChoice & { attention?: 'cross' | 'self' }):
    AttentionRowSteps;
  seq2seqLoss(model: Seq2SeqModel, batch: Seq2SeqBatch):
    { loss: number; tokenLoss: number; gradients: Record<string, Float64Array> };
  seq2seqStep(model: Seq2SeqModel, batch: Seq2SeqBatch, options?: Seq2SeqStepOptions): { model: Seq2SeqModel; loss: number };
  seq2seqTrain(model: Seq2SeqModel, options?: Seq2SeqTrainingOptions): Seq2SeqTrainingRun;
  seq2seqTranslate(model: Seq2SeqModel, source: Tokens, options?: Seq2SeqTranslateOptions):
    { tokens: Int32Array; lengths: Int32Array; crossWeights: Float64Array };
  seq2seqSourceFromText(task: Seq2SeqTask, text: string): Int32Array;
}

/** Loads the whole WebAssembly core (both parts) once per page (or process) and resolves to its API. */
export function loadAttentionCore(): Promise<AttentionCore>;
/**
 * Loads the core's basics alone (two fifths of its bytes), once per page, and
 * resolves to their API: for a page that shows them first and calls
 * loadAttentionCore() for the models later (which reuses this module).
 */
export function loadAttentionBasics(): Promise<AttentionBasics>;
/** The cues' part's functions: what the page's first section calls. */
export type AttentionCues = Pick<AttentionBasics, 'limits' | 'defaults' | 'averagePool' | 'maskedSoftmax' | 'batchMatrixProduct' | 'randomUniform' | 'memoryStats'>;
/**
 * Loads the core's smallest part, the page's first screen's (a module of its
 * own in the page's build; in this package's one file, the basics' module)
 * and resolves to its functions.
 */
export function loadAttentionCues(): Promise<AttentionCues>;
