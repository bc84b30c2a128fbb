"""show() and element_html() of python/attention_lab, run from dist/python
(where the build puts the module with the lab's tables and the element's
script): arguments checked against the lab's table with errors naming them,
attributes written safely, the script displayed once per kernel session.

Usage: python3 -m unittest discover -s tests/notebook -p 'test_*.py'
(ATTENTION_LAB_PYTHON: the folder holding attention_lab, default dist/python).
"""
import importlib
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.abspath(os.environ.get('ATTENTION_LAB_PYTHON', 'dist/python')))
attention_lab = importlib.import_module('attention_lab')


class ElementHtml(unittest.TestCase):
    def test_parameters_become_the_documented_attributes(self):
        written = attention_lab.element_html('pooling', kernel='boxcar', w=2, n=30, leave_one_out=False,
                                             hide=['seed', 'noise'], language='zh')
        self.assertEqual(written, '<attention-lab section="pooling" language="zh" hide="seed,noise" kernel="boxcar" '
                                  'w="2.0" n="30" leave-one-out="false"></attention-lab>')
        self.assertIn('leave-one-out="true"', attention_lab.element_html('training', leaveOneOut=True))

    def test_bad_arguments_are_refused_naming_them(self):
        cases = [
            ({'section': 'poolng'}, ValueError, 'section: expected one of cues, data, pooling'),
            ({'w': 1e9}, ValueError, 'w: expected a number in [0.1, 50], got 1000000000.0'),
            ({'w': float('nan')}, ValueError, 'w: expected a number in [0.1, 50], got nan'),
            ({'w': True}, TypeError, 'w: expected a number, got True'),
            ({'w': '2'}, TypeError, "w: expected a number, got '2'"),
            ({'n': 2.5}, ValueError, 'n: expected a whole number, got 2.5'),
            ({'kernel': 'cosine'}, ValueError, 'kernel: expected one of gaussian, boxcar'),
            ({'leave_one_out': 'no'}, TypeError, "leave_one_out: expected True or False, got 'no'"),
            ({'width': 2}, TypeError, 'width: not a parameter of the lab'),
            ({'language': 'fr'}, ValueError, "language: expected one of en, zh, got 'fr'"),
            ({'hide': ['seed"><script>']}, ValueError, 'hide: expected names of controls'),
            ({'heading': 3}, TypeError, 'heading: expected text, got 3'),
            ({'exercises': 'yes'}, ValueError, "exercises: expected one of on, off, answers, got 'yes'"),
        ]
        for arguments, kind, message in cases:
            with self.subTest(arguments=arguments):
                section = arguments.pop('section', 'pooling')
                with self.assertRaises(kind) as raised:
                    attention_lab.element_html(section, **arguments)
                self.assertIn(message, str(raised.exception))

    def test_exercises_mode_is_an_attribute(self):
        self.assertIn('exercises="answers"', attention_lab.element_html('masking', exercises='answers'))
        self.assertNotIn('exercises=', attention_lab.element_html('masking'))

    def test_a_heading_is_escaped_and_cut(self):
        written = attention_lab.element_html('masking', heading='"><script>alert(1)</script>' + 'x' * 200)
        self.assertNotIn('<script>', written)
        self.assertIn('heading="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;', written)
        self.assertEqual(written.count('x'), attention_lab.MAX_HEADING - len('"><script>alert(1)</script>'))


class Show(unittest.TestCase):
    def test_the_script_is_displayed_once_per_session(self):
        shown = []
        with mock.patch.object(attention_lab, 'display', lambda output: shown.append(output.data)), \
                mock.patch.object(attention_lab, '_script_shown', False), \
                mock.patch.object(attention_lab, '_page_language', None):
            attention_lab.show('pooling', w=2)
            attention_lab.show('masking')
            with self.assertRaises(ValueError):
                attention_lab.show('pooling', w=-1)
        self.assertEqual(len(shown), 2)
        self.assertTrue(shown[0].startswith('<script>'))
        self.assertEqual(shown[0].count('<script>'), 1)
        self.assertNotIn('</script', shown[0][:-len('</script><attention-lab section="pooling" w="2.0"></attention-lab>')])
        self.assertTrue(shown[0].endswith('</script><attention-lab section="pooling" w="2.0"></attention-lab>'))
        self.assertEqual(shown[1], '<attention-lab section="masking"></attention-lab>')


    def test_one_language_a_page_set_by_the_first_show(self):
        shown = []
        with mock.patch.object(attention_lab, 'display', lambda output: shown.append(output.data)), \
                mock.patch.object(attention_lab, '_script_shown', False), \
                mock.patch.object(attention_lab, '_page_language', None):
            attention_lab.show('pooling', language='zh')
            attention_lab.show('masking')
            attention_lab.show('heatmap', language='zh')
            with self.assertRaises(ValueError) as raised:
                attention_lab.show('masking', language='en')
            with self.assertRaises(ValueError) as bad:
                attention_lab.show('masking', language='fr')
        self.assertEqual(len(shown), 3, 'a refused show() displays nothing')
        self.assertIn('language="zh"', shown[1], 'a later section keeps the page\'s language')
        self.assertIn("language: this notebook shows the lab in 'zh', set by the session's first show()",
                      str(raised.exception))
        self.assertIn("restart the kernel to change it; got 'en'", str(raised.exception))
        self.assertIn("language: expected one of en, zh, got 'fr'", str(bad.exception))
        # The first show() without a language leaves it to the notebook page: a later one may not pick one.
        with mock.patch.object(attention_lab, 'display', lambda output: None), \
                mock.patch.object(attention_lab, '_script_shown', False), \
                mock.patch.object(attention_lab, '_page_language', None):
            attention_lab.show('pooling')
            with self.assertRaises(ValueError) as implicit:
                attention_lab.show('masking', language='zh')
        self.assertIn("in the notebook page's language (no language given)", str(implicit.exception))


if __name__ == '__main__':
    unittest.main()
