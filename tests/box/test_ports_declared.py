"""What the running box (narrator.box), the page's server and the journal need of their ports is
declared in Protocols (mypy checks every use), never looked up at run time: no getattr
or hasattr in them (issue 29)."""

from __future__ import annotations

import ast
from pathlib import Path

import narrator

ROOT = Path(narrator.__file__).parent
DECLARED = [*sorted((ROOT / "box").glob("*.py")), ROOT / "web" / "server.py",
            ROOT / "web" / "notices.py", ROOT / "web" / "phone_time.py",
            ROOT / "records" / "journal.py"]


def lookups(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [f"{path.relative_to(ROOT.parent)}:{node.lineno}: {node.func.id}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")]


def test_no_capability_of_a_port_is_looked_up_at_run_time() -> None:
    assert len(DECLARED) > 20  # the box's room is there, each part its own module
    found = [line for path in DECLARED for line in lookups(path)]
    assert found == []
