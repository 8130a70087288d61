"""The GA's settings: one frozen value, checked when it is built; the defaults are the published
settings."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import partial

from gaqueens import problems
from gaqueens.core.ranges import Number, OneOf, Text, Whole, check, setting
from gaqueens.core.registry import Unknown
from gaqueens.ga.operators import Operator, published

ENGINES = ("numpy", "deap")
SCHEMES = ("mu+lambda", "mu,lambda", "simple")
VARIATIONS = ("each", "and", "or")
TIES = ("offspring-first", "parents-first")
UNIT = "evaluations"


def _operator(kind: str):
    """A field holding an operator of ``kind``, the published one by default."""
    return field(default_factory=partial(published, kind), metadata={"operator": kind})


@dataclass(frozen=True)
class GaSettings:
    """The GA's settings; the defaults are the published ones. With DEAP's counterparts:

    engine       "numpy": seeds advanced together in arrays (gaqueens.ga.numpy_engine); "deap":
                 the run made of DEAP's own objects (gaqueens.ga.deap_engine); the same
                 settings on either
    population   mu, the individuals that survive each generation, 1 to 100,000 (20)
    offspring    lambda, the children made each generation, 1 to 100,000 (20); mu,lambda needs
                 offspring >= population; scheme simple makes as many as the population
    scheme       "mu+lambda": parents and children compete (eaMuPlusLambda); "mu,lambda":
                 children only (eaMuCommaLambda); "simple": the children replace the
                 population (eaSimple)
    variation    how children are made: "each", every child a copy of a selected parent,
                 children crossed over in pairs with probability cxpb, then every child
                 mutated; "and", DEAP's varAnd on the selected parents (pairs crossed with
                 probability cxpb, then each child mutated with probability mutpb); "or",
                 DEAP's varOr on the population (each child made by crossover of two random
                 parents with probability cxpb, else by mutation of one with probability mutpb,
                 else copied)
    cxpb         the crossover's probability, a number from 0 to 1 (0.5); applies when there
                 is a crossover
    mutpb        the mutation's probability for variation and/or, a number from 0 to 1 (0.2);
                 with or, cxpb + mutpb is at most 1
    select       how each child's parent is picked: an Operator of kind select
                 (gaqueens.ga.operators): tournament of size 2 (published), uniform, or any
                 DEAP or user selection; variation or picks parents itself
    crossover    none (published), pmx, ordered, or any DEAP or user crossover
    mutation     swap with count 1: two positions swapped per child (published); shuffle
                 (indpb), or any DEAP or user mutation
    survivors    how the next population is picked from the pool: best (the truncation,
                 published), or any selection, as eaMuPlusLambda applies toolbox.select to
                 the pool
    ties         the pool's order, which decides ties among equal survivors: "offspring-first"
                 (children before parents, so the population drifts across plateaus) or
                 "parents-first" (eaMuPlusLambda's population + offspring); mu+lambda only
    problem      the problem the runs solve (gaqueens.problems): "nqueens" (N-Queens, the
                 default), an installed plug-in's name, or an import path
    fitness      the measure the GA minimises, one of the problem's measures; by default its
                 first, its conflicts. N-Queens: "pairs", attacking pairs (published), or
                 "excess", queens beyond the first on each diagonal, the fitness of DEAP's
                 own N-Queens example
    target       stop when the best found has at most this fitness, >= 0 (0); None (none in a
                 file) runs every generation, as DEAP's algorithms do
    generations  stop after this many generations, 0 to 10^9 (50,000)

    A setting that does not apply to the others (``not_applicable``) must keep its default.
    """

    engine: str = setting("numpy", OneOf(ENGINES))
    population: int = setting(20, Whole(1, 100_000))
    offspring: int = setting(20, Whole(1, 100_000))
    scheme: str = setting("mu+lambda", OneOf(SCHEMES))
    variation: str = setting("each", OneOf(VARIATIONS))
    cxpb: float = setting(0.5, Number(0, 1))
    mutpb: float = setting(0.2, Number(0, 1))
    select: Operator = _operator("select")
    crossover: Operator = _operator("crossover")
    mutation: Operator = _operator("mutation")
    survivors: Operator = _operator("survivors")
    ties: str = setting("offspring-first", OneOf(TIES))
    problem: str = setting(problems.DEFAULT, Text(r"[A-Za-z_][\w.:-]*", "a problem's name or "
                                                  "import path, e.g. nqueens"))
    fitness: str | None = setting(None, Text(r"[A-Za-z_][\w-]*", "a fitness measure's name, "
                                             "e.g. pairs", or_none=True))
    target: int | None = setting(0, Whole(0, or_none=True))
    generations: int = setting(50_000, Whole(0, 1_000_000_000))

    def __post_init__(self):
        check(self)
        try:
            measures = problems.get(self.problem).measures
        except Unknown as error:
            raise ValueError(f"problem {self.problem!r} {error}") from None
        if self.fitness is None:
            object.__setattr__(self, "fitness", measures[0])  # the problem's conflicts
        if self.fitness not in measures:
            raise ValueError(f"fitness must be one of {', '.join(measures)} (the measures of "
                             f"{self.problem}), got {self.fitness!r}")
        for each in dataclasses.fields(self):
            kind = each.metadata.get("operator")
            value = getattr(self, each.name)
            if kind and not (isinstance(value, Operator) and value.kind == kind):
                raise ValueError(f"{each.name} must be an operator of kind {kind} "
                                 f"(gaqueens.ga.operators), got {value!r}")
        for name, reason in not_applicable(self).items():
            if getattr(self, name) != default(name):
                raise ValueError(f"{name} does not apply: {reason}")
        problem = combination_problem(self)
        if problem:
            raise ValueError(" ".join(problem))

    @property
    def children(self) -> int:
        """The children made each generation."""
        return self.population if self.scheme == "simple" else self.offspring

    @property
    def crossover_rate(self) -> float:
        """The probability of a crossover: cxpb, or 0 without a crossover."""
        return 0.0 if self.crossover.name == "none" else self.cxpb

    @property
    def sorted(self) -> bool:
        """Whether the population is kept sorted by fitness: truncation survivors."""
        return self.scheme != "simple" and self.survivors.name == "best"

    @property
    def solved_at(self) -> int:
        """The fitness at or below which a run counts as solved: the target, or 0 without one."""
        return 0 if self.target is None else self.target


def default(name: str):
    """The default of the GaSettings field ``name``."""
    each = GaSettings.__dataclass_fields__[name]
    return each.default_factory() if each.default is dataclasses.MISSING else each.default


def _getter(settings):
    """A setting's value by name, from a GaSettings or a partial mapping of its fields."""
    if isinstance(settings, dict):
        return lambda name: settings.get(name, default(name))
    return partial(getattr, settings)


def not_applicable(settings) -> dict[str, str]:
    """The settings that do not apply, with the reason, given the others; ``settings`` is a
    GaSettings or a mapping of some of its fields (the rest at their defaults)."""
    get = _getter(settings)
    scheme, variation = get("scheme"), get("variation")
    out = {}
    if scheme == "simple":
        out["offspring"] = "scheme simple makes as many children as the population"
        out["survivors"] = "scheme simple replaces the population by its children"
    if scheme != "mu+lambda":
        out["ties"] = "ties order the pool of parents and children of scheme mu+lambda"
    if variation == "or":
        out["select"] = "variation or picks its parents uniformly, as DEAP's varOr"
    if variation == "each":
        out["mutpb"] = "variation each mutates every child"
    if get("crossover").name == "none":
        out["cxpb"] = "there is no crossover"
    return out


def combination_problem(settings) -> tuple[str, str] | None:
    """(the setting to change, what it must be) for settings each in range but impossible
    together, or None; ``settings`` is a GaSettings or a mapping of some of its fields (the
    rest at their defaults). The message names the other settings by their bare names."""
    get = _getter(settings)

    if get("scheme") == "mu,lambda" and get("offspring") < get("population"):
        return "offspring", (f"must be at least population ({get('population')}) with scheme "
                             f"mu,lambda, got {get('offspring')}")
    cxpb = 0 if get("crossover").name == "none" else get("cxpb")
    if get("variation") == "or" and cxpb + get("mutpb") > 1:
        return "mutpb", (f"must be at most 1 - cxpb ({1 - cxpb:g}) with variation or, got "
                         f"{get('mutpb')}")
    if get("variation") == "or" and cxpb and get("population") < 2:
        return "population", "must be at least 2 for a crossover with variation or"
    return None
