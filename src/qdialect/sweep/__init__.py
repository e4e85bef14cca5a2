"""Design-space sweeps: machine descriptions x models → cycles, utilization, traffic
(docs/design-space.md; `qsweep` is the command).

* `spec`: the sweep file; `points`: the machine descriptions of its grid (pure);
* `evaluate`: one point — compile, simulate, check against the interpreter — as a row;
* `run`: the points not yet in the results, on a local process pool or a Dask cluster;
* `results`: the table (CSV, Parquet), the per-machine summary and its Pareto front;
* `plot`: the front against the area proxy (matplotlib).
"""
