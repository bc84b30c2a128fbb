// Controls built from the parameter table: a slider with a number box, a
// segmented choice, a switch, a button. Every value goes through store.set,
// so the table's clamping applies; the controls then show the clamped value.
// Each control has a slot where an error about its parameter is shown.
import { scaleLog, scaleLinear } from 'd3-scale';
import { parameters } from './state.js';
import { element } from './dom.js';

const SLIDER_STEPS = 1000;

// Every change of state re-syncs every control: one that already shows the
// value is left untouched, since even an equal write makes the browser
// restyle (a width-slider change spent about 40 ms restyling the page).
function setProperty(node, name, value) {
  if (node[name] !== value) node[name] = value;
}

function setAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

export function createControls(store) {
  const syncers = new Map(); // parameter -> function(state) that shows its value
  const errorSlots = new Map(); // parameter -> element
  let nextId = 0;

  function errorSlot(name) {
    const slot = element('p', { className: 'control-error', role: 'alert', dataset: { errorFor: name } });
    slot.hidden = true;
    errorSlots.set(name, slot);
    return slot;
  }

  function labelled(name, labelKey, body, extra = []) {
    return element('div', { className: `control control-${parameters[name].type}`, dataset: { param: name } }, [
      ...(labelKey ? [element('span', { className: 'control-label', id: `${name}-label`, dataset: { i18n: labelKey } })] : []),
      ...body,
      ...extra,
      errorSlot(name),
    ]);
  }

  // A slider plus a number box for one numeric parameter. Log-scaled
  // parameters (widths, learning rates) map the slider through d3's scaleLog.
  /** @param {string} name @param {{ labelKey?: string, hintKey?: string, slider?: boolean }} [options] */
  function numberControl(name, { labelKey, hintKey, slider = true } = {}) {
    const spec = parameters[name];
    nextId += 1;
    const position = (spec.scale === 'log' ? scaleLog() : scaleLinear())
      .domain([spec.min, spec.max]).range([0, SLIDER_STEPS]).clamp(true);
    const body = [];
    let range = null;
    if (slider) {
      range = element('input', {
        type: 'range', min: 0, max: SLIDER_STEPS, step: 1, 'aria-labelledby': `${name}-label`,
        className: 'slider', dataset: { role: 'slider' },
      });
      range.addEventListener('input', () => store.set({ [name]: position.invert(Number(range.value)) }));
      body.push(range);
    }
    const box = element('input', {
      type: 'number', min: spec.min, max: spec.max, step: spec.step, inputmode: 'decimal',
      'aria-labelledby': `${name}-label`, className: 'number', dataset: { role: 'number' },
    });
    box.addEventListener('change', () => {
      store.set({ [name]: box.value });
      box.value = String(store.get()[name]); // show the clamped value even if nothing changed
    });
    body.push(box);
    const hint = hintKey ? [element('span', { className: 'control-hint', dataset: { i18n: hintKey } })] : [];
    syncers.set(name, (state) => {
      const value = state[name];
      // A slider being dragged keeps its own position: snapping it back to the
      // clamped value's position would make it stick on fine log scales.
      // getRootNode(): inside a shadow root (the <attention-lab> element) the
      // document's activeElement is the host, not the focused input.
      const focused = (range ?? box).getRootNode().activeElement;
      if (range && focused !== range) setProperty(range, 'value', String(Math.round(position(value))));
      // The slider's position (0-1000) means nothing to a screen reader: it reads the value.
      if (range) setAttribute(range, 'aria-valuetext', String(value));
      if (focused !== box) setProperty(box, 'value', String(value));
    });
    return labelled(name, labelKey, [element('div', { className: 'control-row' }, body)], hint);
  }

  // A set of mutually exclusive buttons (radio group) for a choice parameter.
  function choiceControl(name, { labelKey, optionKeys }) {
    const spec = parameters[name];
    const buttons = spec.options.map((option) => {
      const button = element('button', {
        type: 'button', role: 'radio', className: 'segment', dataset: { value: option, i18n: optionKeys[option] },
      });
      button.addEventListener('click', () => store.set({ [name]: option }));
      return button;
    });
    const group = element('div', { className: 'segmented', role: 'radiogroup', 'aria-labelledby': `${name}-label` }, buttons);
    syncers.set(name, (state) => {
      for (const button of buttons) {
        const selected = button.dataset.value === state[name];
        setAttribute(button, 'aria-checked', String(selected));
        setProperty(button, 'tabIndex', selected ? 0 : -1);
      }
    });
    group.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const index = spec.options.indexOf(store.get()[name]);
      const next = spec.options[(index + step + spec.options.length) % spec.options.length];
      store.set({ [name]: next });
      buttons[spec.options.indexOf(next)].focus();
    });
    return labelled(name, labelKey, [group]);
  }

  function toggleControl(name, { labelKey }) {
    const input = element('input', { type: 'checkbox', role: 'switch', className: 'switch-input' });
    input.addEventListener('change', () => store.set({ [name]: input.checked }));
    const label = element('label', { className: 'switch' }, [
      input,
      element('span', { className: 'switch-track', 'aria-hidden': 'true' }),
      element('span', { className: 'control-label', dataset: { i18n: labelKey } }),
    ]);
    syncers.set(name, (state) => {
      setProperty(input, 'checked', state[name]);
    });
    return element('div', { className: 'control control-boolean', dataset: { param: name } }, [label, errorSlot(name)]);
  }

  function button({ labelKey, onClick, className = 'button', action }) {
    const node = element('button', { type: 'button', className, dataset: { i18n: labelKey, action } });
    node.addEventListener('click', onClick);
    return node;
  }

  // "New draw": the next seed of a seed parameter, wrapping at its maximum.
  function nextSeedButton(name, { labelKey, action, className = 'button button-quiet' }) {
    return button({
      labelKey, action, className,
      onClick: () => {
        const seed = store.get()[name];
        store.set({ [name]: seed >= parameters[name].max ? parameters[name].min : seed + 1 });
      },
    });
  }

  return {
    numberControl,
    nextSeedButton,
    choiceControl,
    toggleControl,
    button,
    sync(state) {
      for (const syncer of syncers.values()) syncer(state);
    },
    showError(name, message) {
      const slot = errorSlots.get(name);
      if (!slot) return false;
      slot.textContent = message;
      slot.hidden = false;
      slot.closest('.control')?.classList.add('has-error');
      return true;
    },
    clearError(name) {
      const slot = errorSlots.get(name);
      if (!slot || slot.hidden) return;
      slot.hidden = true;
      slot.textContent = '';
      slot.closest('.control')?.classList.remove('has-error');
    },
  };
}
