"""Attention Lab in a Jupyter notebook: a section of the lab in a cell's output.

    from attention_lab import show
    show('pooling', kernel='boxcar', w=2, hide=['seed'])

The section is the lab's <attention-lab> element, computed by its WebAssembly
core in the browser: no server, no network. The element's script is put into
the notebook once, in the output of the first show() of a kernel session;
later outputs are the element alone. The notebook, and the HTML that
`jupyter nbconvert --to html` makes of it, carry everything.

The build (web/build.mjs) writes this package to dist/python/attention_lab/
with the element's script and the lab's tables beside this file. Put
dist/python on sys.path (or copy the attention_lab folder next to the
notebook).
"""
import html
import json
import math
import re
from pathlib import Path

from IPython.display import HTML, display

_HERE = Path(__file__).resolve().parent
ELEMENT_SCRIPT = _HERE / 'attention-lab-element.js'
TABLES = _HERE / 'lab-tables.json'
LANGUAGES = ('en', 'zh')
MAX_HEADING = 120

_script_shown = False
# The language of this kernel session's sections: the first show()'s (None:
# the notebook page's). The elements of a page share one language (a second
# one would switch the sections above too), so a later show() keeps it.
_page_language = None


def _tables():
    return json.loads(TABLES.read_text(encoding='utf-8'))


def _camel_case(name):
    return re.sub(r'_([a-z0-9])', lambda match: match.group(1).upper(), name)


def _checked(name, value, spec):
    """The attribute value of one parameter, or a ValueError/TypeError naming it."""
    kind = spec['type']
    if kind == 'boolean':
        if not isinstance(value, bool):
            raise TypeError(f'{name}: expected True or False, got {value!r}')
        return 'true' if value else 'false'
    if kind == 'choice':
        if value not in spec['options']:
            raise ValueError(f"{name}: expected one of {', '.join(spec['options'])}, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f'{name}: expected a number, got {value!r}')
    if not math.isfinite(value) or not spec['min'] <= value <= spec['max']:
        raise ValueError(f"{name}: expected a number in [{spec['min']}, {spec['max']}], got {value!r}")
    if kind == 'integer' and value != int(value):
        raise ValueError(f'{name}: expected a whole number, got {value!r}')
    return repr(int(value)) if kind == 'integer' else repr(float(value))


EXERCISE_MODES = ('on', 'off', 'answers')


def element_html(section='pooling', *, language=None, hide=(), heading=None, exercises=None, **parameters):
    """The <attention-lab> element for a section, its parameters checked against the lab's table."""
    tables = _tables()
    if section not in tables['sections']:
        raise ValueError(f"section: expected one of {', '.join(tables['sections'])}, got {section!r}")
    attributes = {'section': section}
    if language is not None:
        if language not in LANGUAGES:
            raise ValueError(f"language: expected one of {', '.join(LANGUAGES)}, got {language!r}")
        attributes['language'] = language
    if isinstance(hide, str):
        hide = [token for token in hide.split(',') if token.strip()]
    for token in hide:
        if not isinstance(token, str) or not re.fullmatch(r'[A-Za-z][A-Za-z0-9_-]*', token.strip()):
            raise ValueError(f'hide: expected names of controls, got {token!r}')
    if hide:
        attributes['hide'] = ','.join(token.strip() for token in hide)
    if heading is not None:
        if not isinstance(heading, str):
            raise TypeError(f'heading: expected text, got {heading!r}')
        attributes['heading'] = heading[:MAX_HEADING]
    if exercises is not None:
        if exercises not in EXERCISE_MODES:
            raise ValueError(f"exercises: expected one of {', '.join(EXERCISE_MODES)}, got {exercises!r}")
        attributes['exercises'] = exercises
    for given, value in parameters.items():
        name = _camel_case(given)
        spec = tables['parameters'].get(name)
        if spec is None:
            raise TypeError(f'{given}: not a parameter of the lab')
        attributes[spec['attribute']] = _checked(given, value, spec)
    written = ' '.join(f'{key}="{html.escape(value, quote=True)}"' for key, value in attributes.items())
    return f'<attention-lab {written}></attention-lab>'


def _script_html():
    script = ELEMENT_SCRIPT.read_text(encoding='utf-8')
    # Inside <script>, only "</script" could end it early (JS never needs it outside a string).
    script = re.sub(r'</(script)', r'<\\/\1', script, flags=re.IGNORECASE)
    return f'<script>{script}</script>'


def show(section='pooling', *, language=None, hide=(), heading=None, exercises=None, **parameters):
    """Displays a section of the lab in the cell's output.

    section: a section of the lab ('pooling', 'masking', 'multihead', ...).
    language: 'en' or 'zh'; by default the notebook page's language. The
    sections of a notebook share one language: the first show() of a kernel
    session sets it, and a later one asking for another is refused (restart
    the kernel to change it).
    hide: controls to hide (parameter names, button actions, or 'controls',
    'export', 'text', 'numbers'), as a list or a comma-separated string.
    heading: the section's title in the course's own words.
    exercises: 'on' (the default), 'off' (hidden) or 'answers' (every answer
    shown, with the teacher's note: for the teacher's own screen).
    parameters: any parameter of the lab, by its name (w=2, leave_one_out=False
    or leaveOneOut=False), checked against its type and range.
    """
    global _script_shown, _page_language
    if _script_shown and language in LANGUAGES and language != _page_language:
        shown = f'in {_page_language!r}' if _page_language else "in the notebook page's language (no language given)"
        raise ValueError(f"language: this notebook shows the lab {shown}, set by the session's first show(), and "
                         f"every section of a page shares one language (another would switch the sections above "
                         f"too): leave language out, or restart the kernel to change it; got {language!r}")
    if _script_shown and language is None:
        language = _page_language
    element = element_html(section, language=language, hide=hide, heading=heading, exercises=exercises, **parameters)
    if _script_shown:
        display(HTML(element))
        return
    display(HTML(_script_html() + element))
    _script_shown = True
    _page_language = language
