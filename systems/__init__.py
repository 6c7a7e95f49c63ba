"""The rules, as numba kernels over the arena of components/ (one module per rules area)."""
