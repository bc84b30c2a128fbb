"""Makes a notebook that shows two sections of the lab with parameters (the
docs' notebook recipe, read from docs/learning-and-teaching.md),
executes it with nbclient (Debian's python3-ipykernel as its kernel) and
exports it with nbconvert to HTML, as a course built from notebooks would.

Usage: run_notebook.py <dist/python> <output folder>
Prints, as JSON, the files written and their sizes.
"""
import json
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter


def recipe_shows():
    """The show() lines of the docs' notebook recipe, as a teacher reads them there."""
    docs = (Path(__file__).resolve().parents[2] / 'docs' / 'learning-and-teaching.md').read_text(encoding='utf-8')
    recipe = docs[docs.index('**A Jupyter notebook**'):]
    block = re.search(r'```python\n(.*?)```', recipe, re.S).group(1)
    lines = [line.strip() for line in block.splitlines() if line.strip()]
    assert lines[0] == 'from attention_lab import show', lines[0]
    return lines[1:]


def main(package_folder, output_folder):
    output = Path(output_folder)
    cells = [
        nbformat.v4.new_markdown_cell('# Attention pooling, then masking'),
        nbformat.v4.new_code_cell(f'import sys\nsys.path.insert(0, {str(Path(package_folder).resolve())!r})\n'
                                  'from attention_lab import show'),
        *[nbformat.v4.new_code_cell(line) for line in recipe_shows()],
        nbformat.v4.new_code_cell("show('pooling', leave_one_out=False, w=1e9)"),  # refused: out of range
    ]
    notebook = nbformat.v4.new_notebook(cells=cells)
    NotebookClient(notebook, timeout=120, kernel_name='python3', allow_errors=True).execute()
    notebook_file = output / 'course.ipynb'
    nbformat.write(notebook, notebook_file)
    # nbconvert's page loads require.js and MathJax from Debian's libjs-* copies,
    # which this machine does not have; the lab needs neither (it brings its
    # own KaTeX), so the test points them at an empty script.
    empty = 'data:text/javascript,'
    body, _ = HTMLExporter(require_js_url=empty, mathjax_url=empty).from_notebook_node(notebook)
    html_file = output / 'course.html'
    html_file.write_text(body, encoding='utf-8')
    errors = [output_['evalue'] for cell in notebook.cells if cell.cell_type == 'code'
              for output_ in cell.outputs if output_.output_type == 'error']
    print(json.dumps({
        'notebook': str(notebook_file), 'notebookBytes': notebook_file.stat().st_size,
        'html': str(html_file), 'htmlBytes': html_file.stat().st_size, 'errors': errors,
    }))


if __name__ == '__main__':
    main(*sys.argv[1:])
