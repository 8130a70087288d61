"""gaqueens: seed sweeps of a (mu+lambda) GA on DEAP for N-Queens, beside classic solvers."""

__version__ = "0.1.0"
