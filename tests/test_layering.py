"""The import layers hold: verifiers <- tasks <- envs <- policy_opt, and inside policy_opt the
CLIs over the loop over training over models over rollout over the algorithm (the
import-linter contracts in pyproject.toml); and no package has an import circle (grimp)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("verifiers", "tasks", "envs", "policy_opt")


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of two or more
    modules (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt)))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    return cycles


def _graph() -> grimp.ImportGraph:
    # this checkout's packages, whatever the installed copy points at
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def test_the_layer_contracts_hold() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command;"
                          " lint_imports_command()", "--no-cache"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=240)  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout and "KEPT" in out.stdout


def test_no_package_has_an_import_circle() -> None:
    graph = _graph()
    assert {m.split(".")[0] for m in graph.modules} == set(PACKAGES)
    assert import_cycles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = _graph()
    # policy_opt.train imports the algorithm; one import back closes a circle through it
    graph.add_import(importer="policy_opt.algorithm.losses", imported="policy_opt.train")
    found = import_cycles(graph)
    assert any({"policy_opt.algorithm.losses", "policy_opt.train"} <= set(c) for c in found), found


def test_the_evaluation_cli_does_not_import_the_trainers_module() -> None:
    graph = _graph()
    assert not graph.chain_exists("policy_opt.evaluate", "policy_opt.train")
    assert not graph.chain_exists("verifiers", "tasks", as_packages=True)
