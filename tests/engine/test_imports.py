"""The engine is pure: it imports the standard library and narrator.errors, nothing else
(pyproject's import-linter contracts say the same for narrator's own modules and the
installed packages; this test also catches a package nobody listed there). Imports under `if TYPE_CHECKING:`
are not loaded at run time (rng.py's `i64`, which only the compiler reads) and do not count."""

from __future__ import annotations

import sys

import grimp


def test_the_engine_imports_only_the_standard_library_and_narrator_errors() -> None:
    graph = grimp.build_graph("narrator", include_external_packages=True, cache_dir=None,
                              exclude_type_checking_imports=True)
    engine = {"narrator.engine", *graph.find_descendants("narrator.engine")}
    allowed = engine | {"narrator.errors"}
    outside = sorted(
        (module, imported)
        for module in engine | {"narrator.errors"}
        for imported in graph.find_modules_directly_imported_by(module)
        if imported not in allowed and imported.split(".")[0] not in sys.stdlib_module_names
    )
    assert outside == []
    assert graph.find_modules_directly_imported_by("narrator.engine.registry"), "graph was built"
