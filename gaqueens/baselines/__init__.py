"""The classic non-evolutionary solvers run beside the GA, one module per algorithm."""
