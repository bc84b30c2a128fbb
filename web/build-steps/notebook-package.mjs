// dist/python/attention_lab/: the Python module that shows a section of the
// lab in a Jupyter notebook (python/attention_lab/), with what it needs
// beside it: the element's script, put into a notebook once, and the lab's
// tables (sections, parameters with their types, ranges and attribute
// spellings), against which show() checks its arguments.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parameters } from '../src/state.js';
import { SECTION_IDS } from '../src/sections/registry.js';
import { SPELLINGS } from '../src/element-attributes.js';

export function labTables() {
  return {
    sections: SECTION_IDS,
    parameters: Object.fromEntries(Object.entries(parameters).map(([name, spec]) => [name, {
      type: spec.type,
      ...(spec.min !== undefined && { min: spec.min, max: spec.max }),
      ...(spec.options && { options: spec.options }),
      default: spec.default,
      attribute: SPELLINGS.get(name).documented,
    }])),
  };
}

export async function writeNotebookPackage(out) {
  const folder = path.join(out, 'python', 'attention_lab');
  await mkdir(folder, { recursive: true });
  await copyFile('python/attention_lab/__init__.py', path.join(folder, '__init__.py'));
  await copyFile(path.join(out, 'attention-lab-element.js'), path.join(folder, 'attention-lab-element.js'));
  await writeFile(path.join(folder, 'lab-tables.json'), `${JSON.stringify(labTables(), null, 1)}\n`);
}
