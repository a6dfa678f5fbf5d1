"""Pins live in requirements.txt; environment.yml and pyproject.toml agree with it."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^=\s]+)$")


def _name(requirement: str) -> str:
    return re.split(r"[=<>\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _requirements() -> list[str]:
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_every_requirement_is_an_exact_pin():
    loose = [line for line in _requirements() if not PIN.match(line)]
    assert not loose, f"not pinned exactly: {loose}"


def test_environment_yml_installs_the_same_pins():
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(item["pip"] for item in environment["dependencies"] if isinstance(item, dict))
    assert sorted(pip_section) == sorted(_requirements()), "run scripts/sync_environment.py"


def test_pyproject_dependencies_are_pinned_in_requirements():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = {_name(line) for line in _requirements()}
    assert {_name(d) for d in declared} <= pinned


def test_book_javascript_is_pinned_exactly():
    import json

    package = json.loads((ROOT / "book" / "package.json").read_text())
    lock = json.loads((ROOT / "book" / "package-lock.json").read_text())
    for name, version in package["dependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is not pinned exactly: {version}"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
