"""Write docs/errors.md: the bad-input contract, one row per case in tests/test_errors.py.

    python scripts/gen_errors_doc.py > docs/errors.md

Every row is a test (both backends, same class and message); ``tests/test_errors_doc.py``
fails when this page and the cases drift apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

HEADER = """# Bad input: what briefpack rejects, and what it says

`assemble` checks everything before it does any work, and both backends reject bad input with the
same exception class and the same message. The message names the candidate's index and id
(where there is one), what is wrong, and the way out. Nothing the caller passed is mutated.

One rule for the caller's callables (`rerank`, `parents`, `chunks_of`, a tokenizer): an exception
one raises becomes an `InputError` whose message names the callable and where it was called
(`the rerank callable raised ValueError: ...`), whose `option` is the callable's option, and
whose `__cause__` is the original exception (`raise ... from exc`), so its traceback is kept.
`KeyboardInterrupt` and other non-`Exception`s pass through.

This table is generated from the cases in `tests/test_errors.py` by
`scripts/gen_errors_doc.py`; each row is a test run on both backends.

| case | error | message |
|---|---|---|
"""


def render() -> str:
    import test_errors

    rows = []
    for param in test_errors.CASES:
        _case, error, message = param.values
        text = str(message).replace("|", "\\|").replace("\n", " ")
        rows.append(f"| {param.id} | `{error.__name__}` | {text} |")
    return HEADER + "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
