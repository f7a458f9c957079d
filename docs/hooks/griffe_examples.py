"""A griffe extension for the API reference: zsim's docstrings head their doctests
``Example:``, which Google style reads as an admonition of plain text (``>>>`` would
render as nested quotes). Renamed ``Examples:``, the lines render as Python sessions."""
from __future__ import annotations

import re

import griffe

_HEADING = re.compile(r"^(\s*)Example:\s*$", flags=re.M)


class DoctestExamples(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        doc = obj.docstring
        if doc is not None and ">>>" in doc.value:
            doc.value = _HEADING.sub(r"\1Examples:", doc.value)
