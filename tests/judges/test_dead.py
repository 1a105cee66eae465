"""Dead code: the fixpoint, and the index-level view of which functions nothing that runs reaches."""

from __future__ import annotations

from sa_align.judges.dead import dead_among, dead_code


def test_fixpoint_kills_chains_but_not_what_running_code_uses():
    users = {
        "a": set(),          # nothing uses it
        "b": {"a"},          # only a dead function does
        "c": {"b", "a"},
        "d": {None},         # module-level code uses it
        "e": {"d"},          # a live function uses it
        "f": {"g"},          # a cycle with no way in stays alive: no proof either way
        "g": {"f"},
    }
    assert dead_among(users) == {"a", "b", "c"}


async def test_dead_code_over_an_index(small):
    files = {
        "run.py": '''
            from lib import used

            if __name__ == "__main__":
                used()
        ''',
        "lib.py": '''
            def helper():
                return 1


            def orphan():
                return helper() + leaf()


            def leaf():
                return 2


            def used():
                return helper()
        ''',
    }
    dead = dead_code(small(files).index)
    names = {sid.split("::")[1] for sid in dead.dead}
    assert names == {"orphan", "leaf"}
    assert dead.callers["lib.py::leaf"] == ("lib.py::orphan",)
