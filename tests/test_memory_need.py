"""Each algorithm states the memory a run needs (README, "Memory"), which the sweep's budget
refuses runs by; python -m gaqueens.bench.memory sets it beside a run's measured peak."""


def test_every_built_in_algorithm_states_a_need_that_grows_with_the_board():
    from gaqueens import baselines, ga  # noqa: F401  (register the built-in algorithms)
    from gaqueens.core.algorithms import ALGORITHMS
    from gaqueens.runtime.execution import need

    assert {"ga", "local-search", "construction"} <= set(ALGORITHMS)
    for name, algorithm in ALGORITHMS.items():
        small, large = (need(algorithm, algorithm.settings(), board) for board in (10**3, 10**5))
        assert small is not None and 0 < small < large, name
