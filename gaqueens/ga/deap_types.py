"""DEAP's types for gaqueens, made once, at import, here and nowhere else: a fitness to
minimise and an individual that is a list of columns. Made at import so that every process
that imports gaqueens.ga (forked pool workers, Dask workers) has them. Their names carry the
package's name, so that they never meet a notebook's own creator.Individual."""

from deap import base, creator

if not hasattr(creator, "GaqueensFitness"):
    creator.create("GaqueensFitness", base.Fitness, weights=(-1.0,))
if not hasattr(creator, "GaqueensIndividual"):
    creator.create("GaqueensIndividual", list, fitness=creator.GaqueensFitness)

Fitness = creator.GaqueensFitness
Individual = creator.GaqueensIndividual
