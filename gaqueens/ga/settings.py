"""The GA's settings: one frozen value, checked when it is built; the defaults are the published
settings."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from gaqueens.ga.operators import (
    CROSSOVER, MUTATION, SELECT, Crossover, Mutation, NoCrossover, Selection, Swap, Tournament,
)
from gaqueens.ranges import OneOf, Whole, check, setting

SCHEMES = ("mu+lambda", "mu,lambda")
TIES = ("offspring-first", "parents-first")
UNIT = "evaluations"


@dataclass(frozen=True)
class GaSettings:
    """The GA's settings; the defaults are the published ones.

    population   mu, the individuals that survive each generation, 1 to 100,000 (20)
    offspring    lambda, the children made each generation, 1 to 100,000 (20); mu,lambda needs
                 offspring >= population
    scheme       "mu+lambda": parents and children compete; "mu,lambda": children only
    select       how each child's parent is picked: Tournament(2), or Uniform()
    crossover    NoCrossover(), or DEAP's Pmx(rate) / Ordered(rate) on pairs of children
    mutation     Swap(1): two positions swapped per child; or DEAP's Shuffle(indpb)
    ties         "offspring-first": on equal conflicts children survive before parents, so the
                 population drifts across plateaus; "parents-first" keeps the parents
    target       stop when the best has at most this many conflicts, >= 0 (0)
    generations  stop after this many generations, 0 to 10^9 (50,000)
    """

    population: int = setting(20, Whole(1, 100_000))
    offspring: int = setting(20, Whole(1, 100_000))
    scheme: str = setting("mu+lambda", OneOf(SCHEMES))
    select: Selection = field(default_factory=Tournament, metadata={"registry": SELECT})
    crossover: Crossover = field(default_factory=NoCrossover, metadata={"registry": CROSSOVER})
    mutation: Mutation = field(default_factory=Swap, metadata={"registry": MUTATION})
    ties: str = setting("offspring-first", OneOf(TIES))
    target: int = setting(0, Whole(0))
    generations: int = setting(50_000, Whole(0, 1_000_000_000))

    def __post_init__(self):
        check(self)
        for each in dataclasses.fields(self):
            registry = each.metadata.get("registry")
            if registry and type(getattr(self, each.name)) not in registry.values():
                raise ValueError(f"{each.name} must be one of {', '.join(registry)}, got "
                                 f"{getattr(self, each.name)!r}")
        if self.scheme == "mu,lambda" and self.offspring < self.population:
            raise ValueError(f"offspring must be at least population ({self.population}) with "
                             f"scheme mu,lambda, got {self.offspring}")
