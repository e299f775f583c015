"""Exhaustive pool tables (pool x successes x ones) for the classic pool and the Chronicles
of Darkness variant, against oracles written here from the rules (not from the pack)."""

from __future__ import annotations

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for


@pytest.fixture(scope="module")
def engine():
    return engine_for(Kernel())


def owod_oracle(successes: int, ones: int, willpower: int) -> tuple[str, int]:
    """Each 1 cancels a success; a botch is no successes rolled and at least one 1 (willpower's
    automatic success prevents it); willpower adds one success 1s do not cancel."""
    net = max(successes - ones, 0) + willpower
    if successes == 0 and ones > 0 and willpower == 0:
        return "botch", net
    return ("success" if net >= 1 else "failure"), net


def owod_faces(pool: int, successes: int, ones: int, difficulty: int) -> list[int] | None:
    filler = pool - successes - ones
    if filler and difficulty <= 2:
        return None  # every face but 1 succeeds at difficulty 2
    hits = [difficulty + (i % (11 - difficulty)) for i in range(successes)]
    misses = [2 + (i % (difficulty - 2)) for i in range(filler)] if filler else []
    faces = hits + [1] * ones + misses
    # interleave so that position does not matter
    return faces[::2] + faces[1::2]


@pytest.mark.parametrize("difficulty", range(2, 11))
def test_owod_table(engine, difficulty: int) -> None:
    pack = engine.rule_system("wod")
    rows = 0
    for pool in range(1, 11):
        for successes in range(pool + 1):
            for ones in range(pool - successes + 1):
                faces = owod_faces(pool, successes, ones, difficulty)
                if faces is None:
                    continue
                for willpower in (0, 1):
                    result = pack.check(params={"pool": pool, "difficulty": difficulty, "willpower": willpower},
                                        faces=faces)
                    rank, net = owod_oracle(successes, ones, willpower)
                    assert (result.rank, result.margin) == (rank, net), (pool, successes, ones, difficulty, willpower)
                    assert result.successes == successes and result.ones == ones
                    assert result.fumble == (rank == "botch") and result.success == (rank == "success")
                    rows += 1
    assert rows > 0


def cofd_oracle(faces: list[int], again: int) -> tuple[str, int, int]:
    """Target 8; each die at `again` or more adds a die (which can add again); 1s never cancel;
    no successes: failure; 5+: exceptional. Returns (outcome, successes, dice rolled)."""
    successes = sum(1 for f in faces if f >= 8)
    if successes == 0:
        return "failure", 0, len(faces)
    return ("exceptional" if successes >= 5 else "success"), successes, len(faces)


def test_cofd_table_pool_successes_ones(engine) -> None:
    rows = 0
    for pool in range(1, 13):
        for successes in range(pool + 1):
            for ones in range(pool - successes + 1):
                filler = pool - successes - ones
                faces = [8 + (i % 2) for i in range(successes)] + [1] * ones + [2 + (i % 6) for i in range(filler)]
                faces = faces[1::2] + faces[::2]
                result = engine.subsystem("wod", "cofd", None, pool=pool, faces=faces)
                outcome, count, _n = cofd_oracle(faces, 10)
                assert (result.outcome, result.values["successes"]) == (outcome, count), (pool, successes, ones)
                assert result.success == (count > 0) and result.values["dice"] == faces
                rows += 1
    assert rows == sum((p + 1) * (p + 2) // 2 for p in range(1, 13))


@pytest.mark.parametrize(("again", "pool", "faces"), [
    (10, 3, [10, 10, 3, 8, 2]),         # two 10s add two dice
    (10, 2, [10, 10, 10, 1, 5]),        # a rerolled 10 rerolls again
    (9, 3, [9, 10, 2, 9, 1, 4]),        # 9-again
    (8, 2, [8, 8, 8, 3, 7]),            # 8-again
    (11, 3, [10, 10, 10]),              # no again
])
def test_cofd_again(engine, again: int, pool: int, faces: list[int]) -> None:
    result = engine.subsystem("wod", "cofd", None, pool=pool, again=again, faces=faces)
    # oracle: count the dice the rule rolls
    rolled, remaining = [], pool
    it = iter(faces)
    while remaining:
        f = next(it)
        rolled.append(f)
        remaining -= 1
        if f >= again:
            remaining += 1
    assert rolled == faces
    outcome, count, _n = cofd_oracle(faces, again)
    assert (result.outcome, result.values["successes"]) == (outcome, count)


@pytest.mark.parametrize("pool", [0, -1, -3])
def test_cofd_chance_die(engine, pool: int) -> None:
    for face in range(1, 11):
        result = engine.subsystem("wod", "cofd", None, pool=pool, faces=[face])
        want = "success" if face == 10 else "dramatic_failure" if face == 1 else "failure"
        assert result.outcome == want and result.flags == {"chance_die": True}
