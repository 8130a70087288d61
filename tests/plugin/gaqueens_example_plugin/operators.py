"""An inversion mutation written DEAP's way: a random segment of the genome reversed."""

import random


def reverse_segment(individual, longest):
    """Reverses a segment of 2 to ``longest`` consecutive entries at a random position; the
    individual is changed in place and returned in a tuple, as DEAP's mutations do."""
    length = random.randint(2, min(longest, len(individual)))
    start = random.randrange(len(individual) - length + 1)
    individual[start:start + length] = individual[start:start + length][::-1]
    return (individual,)
