"""``import briefpack`` does no work it does not need: it loads no reference kernel, compiles no
routing regex and parses no character table; the first call loads what it uses.

Counted in a fresh interpreter (modules loaded, the table's parse cache), never timed.
"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
import briefpack
{after}
loaded = sorted(m for m in sys.modules if m.startswith("briefpack"))
chartable = sys.modules.get("briefpack._chartable")
parsed = chartable.table.cache_info().currsize if chartable else 0
print(json.dumps({{"loaded": loaded, "parsed": parsed, "re": "re" in sys.modules and
    "briefpack.routing" in sys.modules}}))
"""


def _probe(after: str = "") -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(after=after)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_import_briefpack_loads_only_the_facade_and_its_leaves() -> None:
    got = _probe()
    assert got["loaded"] == ["briefpack", "briefpack.errors"]
    assert got["parsed"] == 0
    assert not got["re"]


def test_the_first_use_of_a_name_loads_its_module_and_not_the_reference() -> None:
    got = _probe("briefpack.Chunk; briefpack.count_tokens(['a b'], encoding='approx')")
    loaded = got["loaded"]
    assert isinstance(loaded, list)
    assert {"briefpack.types", "briefpack.kernels"} <= set(loaded)
    assert not [m for m in loaded if m.startswith("briefpack.reference")]
    assert "briefpack.assembler" not in loaded
    assert got["parsed"] == 0


def test_the_character_table_is_parsed_once_on_first_use() -> None:
    got = _probe(
        "from briefpack import _chartable\n"
        "_chartable.classes(); _chartable.classes(); _chartable.table()\n"
        "parsed_after = _chartable.table.cache_info()\n"
        "assert (parsed_after.misses, parsed_after.hits) == (1, 2), parsed_after"
    )
    assert got["parsed"] == 1
