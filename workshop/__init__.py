"""The workshop: tools that never run on the box, kept out of the `narrator` package (a box
installs `narrator` alone).

- `bench`: `narrator bench`'s areas, each measuring one part of the box (BENCHMARKS.md).
- `guide`: the hardware build guide's drawings and tables from hardware/*.yaml
  (scripts/make-hardware).

They import `narrator`; `narrator` imports nothing of theirs but `narrator bench`'s table,
lazily, from a source tree.
"""
