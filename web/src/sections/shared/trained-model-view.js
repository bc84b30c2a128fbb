// What both sections that train a model in the page (attention-training,
// translation) build their view from, around the run view
// (run/run-view.js): the run with its row-steps panel, the examples' table
// with the one the maps show, the learner's typed input, how the run follows
// the inputs as the section draws, and what the view hands the exercises and
// the mount. `name` is the prefix of the elements' roles, ids and figure
// names; catalogue keys are the section's, passed in.
import { element } from '../../dom.js';
import { figureCell } from './frame.js';
import { createRunView } from '../../run/run-view.js';
import { createRowStepsPanel } from './row-steps-panel.js';

// The run view with a row of the maps taken apart below them (named as a
// figure, so a prediction that covers the maps covers it too).
// `maps`: the section's maps (maps.js); forward and draw: a model's pass
// on the examples and that pass on screen; the rest as createRunView takes it.
/**
 * @param {Omit<Parameters<typeof createRunView>[0], 'maps' | 'mapsContent'>
 *   & { maps: { nodes: Node[] }, forward: *, draw: * }} options
 */
export function createTrainedRun({ maps, name, forward, draw, ...runOptions }) {
  const rowSteps = createRowStepsPanel({ name });
  rowSteps.element.dataset.figure = `${name}-row-steps`;
  const run = createRunView({
    ...runOptions, name, maps: { forward, draw }, mapsContent: [...maps.nodes, rowSteps.element],
  });
  // context: the section's { inputs, result } on screen (its draw sets it), or null.
  return { run, rowSteps, maps, context: null };
}

// The examples' table (a radio per row chooses the one the maps show) and
// the choice itself: `selected` is an example's index or 'typed' (the
// learner's own, `typed`). `headKeys`: the columns' titles; `cells`: the
// names of the row's cells after the radio; onChoose(): an example chosen.
export function createExamplePicker(figures, {
  name, count, captionKey, headKeys, cells, cellClass, tableClass, onChoose,
}) {
  const body = figureCell(figures, { captionKey, className: `cell-${name}-examples` });
  const rows = element('tbody');
  body.append(element('div', { className: 'log-scroll' }, [element('table', { className: tableClass, dataset: { role: `${name}-examples` } }, [
    element('thead', {}, [element('tr', {}, headKeys.map((key) => element('th', { scope: 'col', dataset: { i18n: key } })))]),
    rows,
  ])]));
  const picker = {
    body,
    selected: /** @type {number | 'typed'} */ (0),
    typed: null,
    // One row per example, built once (a radio keeps its focus while the run redraws).
    /** @type {(Record<string, HTMLElement> & { row: HTMLElement, choose: HTMLInputElement })[]} the named cells too */
    rows: Array.from({ length: count }, (_, item) => {
      const choose = element('input', { type: 'radio', name: `${name}-example`, value: String(item) });
      choose.addEventListener('change', () => {
        picker.selected = item;
        onChoose();
      });
      const named = Object.fromEntries(cells.map((cell) => [cell, element('td', { className: cellClass })]));
      const row = element('tr', { dataset: { item } }, [element('td', {}, [choose]), ...Object.values(named)]);
      rows.append(row);
      return { row, choose, ...named };
    }),
    // Marks example `item`'s row chosen or not; `label` names its radio.
    markRow(item, label) {
      const { row, choose } = picker.rows[item];
      choose.checked = picker.selected === item;
      choose.setAttribute('aria-label', label);
      row.classList.toggle('is-selected', picker.selected === item);
    },
    // The learner's own, when it is chosen and `model` can take it:
    // typedForward(model) draws it (null when the core refused it: the
    // first example again). Null otherwise.
    typedShown(model, typedForward) {
      if (picker.selected !== 'typed' || !picker.typed || !model) return null;
      const shown = typedForward(model);
      if (!shown) {
        picker.selected = 0;
        picker.typed = null;
      }
      return shown;
    },
    // The example the maps show when the learner's own is not drawn.
    item: () => (picker.selected === 'typed' ? 0 : picker.selected),
  };
  return picker;
}

// The learner's own input, under the examples: a text box, its Show button
// (and Enter) calling onShow(), a hint, the refusal and the result.
// `resultName`: the result's data attribute (what the model gave);
// `inputmode`: the keyboard to offer (none: the text keyboard).
/**
 * @param {*} controls
 * @param {{ name: string, labelKey: string, showKey: string, hintDataset: Record<string, string>, inputmode?: string,
 *   resultName: string, onShow: () => void }} options
 */
export function createTypedInput(controls, {
  name, labelKey, showKey, hintDataset, inputmode, resultName, onShow,
}) {
  const input = element('input', {
    type: 'text', className: 'text-input', id: `${name}-typed-input`, inputmode, autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': `${name}-typed-hint`, dataset: { role: `${name}-typed-input` },
  });
  const button = controls.button({ labelKey: showKey, className: 'button', action: `${name}-typed-show`, onClick: () => onShow() });
  const message = element('p', { className: 'control-error', role: 'alert', dataset: { role: `${name}-typed-error` } });
  message.hidden = true;
  const result = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: `${name}-typed-result` } });
  const hint = element('span', { className: 'control-hint', id: `${name}-typed-hint`, dataset: hintDataset });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onShow();
    }
  });
  const clearResult = () => {
    result.textContent = '';
    delete result.dataset[resultName];
  };
  return {
    node: element('div', { className: 'at-typed' }, [
      element('label', { className: 'control-label', for: `${name}-typed-input`, dataset: { i18n: labelKey } }),
      element('div', { className: 'control-row' }, [input, button]),
      hint,
      message,
      result,
    ]),
    input,
    hint,
    clearResult,
    // What the model gave: `text` on screen, `value` in the data attribute.
    showResult(text, value) {
      result.textContent = text;
      result.dataset[resultName] = value;
    },
    // The input refused: why, and no result.
    refuse(text) {
      message.textContent = text;
      message.hidden = false;
      clearResult();
    },
    accept() {
      message.hidden = true;
      message.textContent = '';
    },
  };
}

// The run following the section's inputs as it draws: the language
// re-labels the maps and the row-steps panel; a change of `resetting`
// starts the run again from `model0` (onReset() first); `speedName` paces
// it at `speed` steps a second; `stepsName` moves its end; anything else
// only redraws (the language: what the run wrote, re-labelled).
export function followInputs({ run, rowSteps, maps }, {
  inputs, changed, resetting, speedName, stepsName, speed, model0, onReset,
}) {
  if (changed.has('language')) {
    maps.relabel();
    rowSteps.relabel();
  }
  const resets = resetting.some((name) => changed.has(name));
  if (changed.has(speedName) || resets) run.setSpeed(speed);
  if (resets) {
    onReset();
    run.reset(model0, inputs[stepsName]);
  } else if (changed.has(stepsName)) {
    run.setTarget(inputs[stepsName]);
  } else {
    run.redraw();
  }
}

// The row-steps panel on a row of the model drawn (`model`), or for a
// moment of the timeline (which keeps maps, not parameters) the run's
// current model, said so on screen: its numbers are always a model's the
// run holds. describe(live) gives the panel's other fields.
export function showRowSteps({ run, rowSteps }, { model, momentStep, playing }, describe) {
  const current = run.current();
  const live = model ?? current?.model;
  if (!live) return;
  rowSteps.update({
    ...describe(live), model: live,
    liveStep: current?.step ?? 0, momentStep: model === null ? momentStep : undefined,
  }, { frozen: playing });
}

// What the view hands out beside draw: for the exercises (check and
// solution are handed the view) the model the run has reached, its step,
// status and last held-out evaluation, and the inputs it trains for (null
// before a run is set); the row the row-steps panel takes apart (its core
// numbers, or null while it is closed); and dispose() (the section is going
// away: the run stops, no frame stays pending).
export function trainedViewParts(trained) {
  const { run, rowSteps, maps } = trained;
  return {
    trainedRun() {
      const current = trained.context === null ? null : run.current();
      return current && { ...current, inputs: trained.context.inputs };
    },
    rowSteps: () => rowSteps.rowSteps(),
    // The runs the learner kept to compare (run/kept-runs.js).
    keptRuns: () => run.keptRuns(),
    // The teacher's answer key (exercises=answers) gives the values of the
    // model a learner's Play trains and of the row the panel takes apart:
    // each run set plays at once, the panel is open, and changed() is
    // called when the run rests or another row is taken apart.
    watchAnswers(changed) {
      rowSteps.element.open = true;
      for (const type of ['toggle', 'change']) rowSteps.element.addEventListener(type, changed);
      run.autoplay(changed);
    },
    dispose() {
      run.dispose();
      trained.context = null;
      maps.forget();
      rowSteps.forget();
    },
  };
}
