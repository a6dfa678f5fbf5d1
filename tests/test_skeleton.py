"""Every registered study follows the one skeleton of :mod:`perfstudies.studies`.

The contract is checked on the source, so a sixth study cannot drift: the
package's modules and their layer order, where the Ciw subclasses live, the
public API, the chapter's imports, and one test module per concern.
"""

import ast
import importlib
import inspect
import re
from pathlib import Path

import ciw
import pytest

from perfstudies.paths import ROOT
from perfstudies.studies import LAYERS, OPTIONAL_LAYERS, PUBLIC_API, STUDIES, study_module

KEYS = list(STUDIES)
PACKAGE = ROOT / "lib" / "perfstudies" / "models"
CIW_BASES = (ciw.Node, ciw.dists.Distribution, ciw.routing.NodeRouting, ciw.routing.NetworkRouting)
TEST_MODULES = ("test_analytic.py", "test_mechanism.py", "test_calibration.py", "test_comparison.py",
                "test_explore.py")
REMOVED = ("remove-cell", "remove-input", "hide-input")


def _modules(key: str) -> dict[str, Path]:
    return {path.stem: path for path in sorted((PACKAGE / key).glob("*.py")) if path.stem != "__init__"}


def _study_imports(key: str, path: Path) -> set[str]:
    """The study's own modules that ``path`` imports (absolute or relative)."""
    found = set()
    prefix = f"perfstudies.models.{key}."
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith(prefix):
                found.add(node.module[len(prefix):].split(".")[0])
            elif node.module == f"perfstudies.models.{key}":
                found.update(alias.name for alias in node.names if alias.name in LAYERS)
        elif isinstance(node, ast.Import):
            found.update(alias.name[len(prefix):].split(".")[0] for alias in node.names
                         if alias.name.startswith(prefix))
    return found


@pytest.mark.parametrize("key", KEYS)
def test_the_package_has_exactly_the_skeletons_modules(key):
    modules = set(_modules(key))
    required = set(LAYERS) - set(OPTIONAL_LAYERS)
    assert required <= modules, f"{key} lacks {sorted(required - modules)}"
    assert modules <= set(LAYERS), f"{key} has modules outside the skeleton: {sorted(modules - set(LAYERS))}"


@pytest.mark.parametrize("key", KEYS)
def test_modules_import_only_lower_layers(key):
    rank = {name: index for index, name in enumerate(LAYERS)}
    climbing = [f"{name} imports {other}" for name, path in _modules(key).items()
                for other in _study_imports(key, path) if other in rank and rank[other] >= rank[name]]
    assert not climbing, f"{key}: a module imports one at or above its own layer: {climbing}"


@pytest.mark.parametrize("key", KEYS)
def test_init_holds_the_public_api_only(key):
    init = PACKAGE / key / "__init__.py"
    tree = ast.parse(init.read_text())
    body = tree.body[1:] if ast.get_docstring(tree) else tree.body
    allowed = ("__all__ = ", "STUDY = Study(", "comparison = STUDY.comparison")
    extra = [ast.unparse(node)[:60] for node in body if not isinstance(node, (ast.Import, ast.ImportFrom))
             and not ast.unparse(node).startswith(allowed)]
    assert not extra, f"{key}/__init__.py holds more than imports, STUDY, its comparison and __all__: {extra}"
    module = study_module(key)
    missing = [name for name in PUBLIC_API if name not in module.__all__ or not hasattr(module, name)]
    assert not missing, f"{key} does not export {missing}"
    assert module.STUDY.key == module.KEY == key and isinstance(module.SEED, int)
    assert module.SEED == importlib.import_module(f"perfstudies.models.{key}.params").SEED


@pytest.mark.parametrize("key", KEYS)
def test_the_public_functions_have_the_shared_signatures(key):
    module = study_module(key)
    assert list(inspect.signature(module.model).parameters)[:2] == ["params", "seed"]
    widget = inspect.signature(module.widget_run).parameters
    assert list(widget) == ["params"] and widget["params"].default is None
    assert module.model.__module__.endswith(".network")
    assert module.calibrate.__module__.endswith(".calibration")
    assert module.comparison == module.STUDY.comparison, "the comparison is the contract's, not the study's own"
    assert module.widget_run.__module__.endswith(".explore")
    assert module.SWEEPS is module.STUDY.sweeps and module.SWEEPS, "the chapter's sweeps, declared"
    for name, sweep in module.SWEEPS.items():
        assert sweep.name == f"{key}-{name}" and sweep.seed == module.SEED, name
        assert sweep.points.__module__.endswith(".explore") and sweep.model.__module__.endswith(".network"), name
    assert callable(importlib.import_module(f"perfstudies.models.{key}.network").build_network)


@pytest.mark.parametrize("key", KEYS)
def test_every_ciw_subclass_lives_in_mechanism_with_a_docstring_and_a_repr(key):
    for name in _modules(key):
        module = importlib.import_module(f"perfstudies.models.{key}.{name}")
        classes = [value for value in vars(module).values()
                   if inspect.isclass(value) and value.__module__ == module.__name__]
        ciw_classes = [value for value in classes if issubclass(value, CIW_BASES)]
        if name != "mechanism":
            assert not ciw_classes, f"{key}.{name} defines Ciw subclasses {ciw_classes}: they belong in mechanism.py"
            continue
        assert ciw_classes, f"{key}.mechanism defines no Ciw subclass"
        for value in ciw_classes:
            assert (value.__doc__ or "").strip(), f"{value.__qualname__} has no docstring"
            owner = next(base for base in value.__mro__ if "__repr__" in vars(base))
            assert owner.__module__ == module.__name__, f"{value.__qualname__} has no __repr__ of its own"


def _code_cells(text: str) -> list[tuple[list[str], str]]:
    """(tags, source) of every code cell of a MyST notebook."""
    cells = []
    for match in re.finditer(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.DOTALL):
        body = match.group(1)
        tags = re.findall(r"^:tags: \[(.*?)\]", body, flags=re.MULTILINE)
        cells.append(([t.strip() for t in tags[0].split(",")] if tags else [],
                      re.sub(r"^:\w+:.*\n", "", body, flags=re.MULTILINE)))
    return cells


@pytest.mark.parametrize("key", KEYS)
def test_the_chapter_imports_in_one_visible_cell_and_only_the_public_api(key):
    text = (ROOT / "notebooks" / f"{key}.md").read_text()
    heading = re.search(r"^## Imports\n(.*?)```\{code-cell\}", text, flags=re.MULTILINE | re.DOTALL)
    assert heading, f"notebooks/{key}.md has no '## Imports' section followed by a code cell"
    cells = _code_cells(text)
    importing = [index for index, (_, source) in enumerate(cells)
                 if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(ast.parse(source)))]
    assert len(importing) == 1, f"notebooks/{key}.md imports in cells {importing}: allowed one Imports cell"
    tags, source = cells[importing[0]]
    assert not set(tags) & set(REMOVED), "the Imports cell is visible"
    tree = ast.parse(source)
    statements = [node for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))]
    assert len(statements) <= 2, f"the Imports cell holds only imports and set-up calls, not {statements}"
    private = [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and node.module and node.module.startswith(f"perfstudies.models.{key}.")]
    assert not private, f"notebooks/{key}.md imports past the public API: {private}"


#: What a hidden cell may call: the one glue of the chapter's facts and the self-check quiz (issue 24: a
#: reader sees every call that makes a table, a chart or a number; hidden cells only glue and set up).
HIDDEN_CALLS = {"glue_facts", "facts", "for_chapter"}
#: Most non-blank lines of a hidden cell.
HIDDEN_LINES = 3


@pytest.mark.parametrize("key", KEYS)
def test_hidden_cells_hold_only_glue_and_setup(key):
    text = (ROOT / "notebooks" / f"{key}.md").read_text()
    problems = []
    for tags, source in _code_cells(text):
        if not set(tags) & set(REMOVED):
            continue
        lines = [line for line in source.splitlines() if line.strip()]
        calls = {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                 for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)}
        if len(lines) > HIDDEN_LINES or not calls <= HIDDEN_CALLS:
            problems.append(f"{tags}: {' / '.join(lines)[:120]}")
    assert not problems, f"notebooks/{key}.md hides more than glue and setup: {problems}"
    assert "Markdown(f" not in text and ".iloc[" not in text, \
        f"notebooks/{key}.md writes prose in f-strings or reads rows by position"
    assert text.count("glue_facts(") == 1 and not re.search(r"\bglue\(", text), \
        f"notebooks/{key}.md glues its numbers by one glue_facts call"


@pytest.mark.parametrize("key", KEYS)
def test_the_chapter_redeclares_no_constant(key):
    text = (ROOT / "notebooks" / f"{key}.md").read_text()
    constants = [target.id for _, source in _code_cells(text) for node in ast.parse(source).body
                 if isinstance(node, ast.Assign) for target in node.targets
                 if isinstance(target, ast.Name) and target.id.isupper()]
    assert not constants, f"notebooks/{key}.md declares constants {constants}: they belong in the study's modules"


@pytest.mark.parametrize("key", KEYS)
def test_each_concern_has_its_test_module(key):
    folder = ROOT / "tests" / key
    missing = [name for name in TEST_MODULES if not (folder / name).exists()]
    assert not missing, f"tests/{key}/ lacks {missing}"
    theory = (folder / "test_analytic.py").read_text()
    assert "analytic" in theory and re.search(r"\bmodel\(|network|replicate", theory), \
        f"tests/{key}/test_analytic.py has no simulation-versus-theory test"
