"""The files here are read by the type checkers (tests/test_typing.py), never run or imported:
they build SDK clients and call them as a user would."""

collect_ignore_glob = ["pass_*.py", "fail_*.py"]
