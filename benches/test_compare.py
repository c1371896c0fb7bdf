"""benches/compare.py: medians over runs, and the before -> after table."""

from __future__ import annotations

import compare


def test_medians_take_each_ratio_over_the_runs() -> None:
    runs = [
        [(200, "Chunks", 1.0, 2.0, 3.0, 4.0)],
        [(200, "Chunks", 5.0, 1.0, 1.0, 1.0)],
        [(200, "Chunks", 3.0, 3.0, 2.0, 9.0)],
    ]
    assert compare.medians(runs) == [(200, "Chunks", 3.0, 2.0, 2.0, 4.0)]


def test_table_shows_cpu_ratios_before_and_after() -> None:
    before = [(1000, "Chunks", 9.0, 1.5, 9.0, 1.25)]
    after = [(1000, "Chunks", 9.0, 1.2, 9.0, 1.1)]
    assert (
        compare.table(before, after)[2]
        == "| 1,000 | Chunks | 1.50x -> 1.20x | 1.25x -> 1.10x | | |"
    )


def test_table_shows_the_times_when_the_rows_have_them() -> None:
    before = [(200, "Chunks", 1.0, 1.5, 1.0, 1.8, 0.0045, 0.003, 0.0027, 0.0015)]
    after = [(200, "Chunks", 1.0, 1.4, 1.0, 1.7, 0.0035, 0.0025, 0.0017, 0.001)]
    assert compare.table(before, after)[2].endswith("| 4.50 ms -> 3.50 ms | 2.70 ms -> 1.70 ms |")
