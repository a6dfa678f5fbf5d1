"""The print edition numbers each chapter, and its equations, as the web book does."""

from types import SimpleNamespace

from conftest import book_extension

book_extension("front_numbers")  # which print_numbers imports, as Sphinx loads the book's extensions
print_numbers = book_extension("print_numbers")


def _env(numbers: dict) -> SimpleNamespace:
    return SimpleNamespace(config=SimpleNamespace(root_doc="book/intro"),
                           toc_secnumbers={page: {"": number} for page, number in numbers.items()})


def test_a_chapter_under_its_heading_steps_to_its_own_number_and_its_equations_follow_it():
    env = _env({"notebooks/vts": (4,)})
    latex = print_numbers.numbering(env, "notebooks/vts")
    assert "\\setcounter{chapter}{3}" in latex, "the chapter heading steps the counter to 4"
    assert "\\renewcommand{\\theequation}{4.\\arabic{equation}}" in latex


def test_a_page_the_document_starts_from_has_no_heading_to_step_or_restart_its_numbers():
    env = _env({"notebooks/vts": (4,)})
    alone = print_numbers.numbering(env, "notebooks/vts", heading=False)
    assert "\\setcounter{chapter}{4}" in alone and "\\setcounter{equation}{0}" in alone
    introduction = print_numbers.numbering(env, "book/intro", heading=False)
    assert "{0.\\arabic{equation}}" in introduction, "the introduction's equations read (0.m), as on the web"


def test_a_page_outside_the_numbered_part_prints_unnumbered():
    assert print_numbers.numbering(_env({}), "book/glossary") == "\\setcounter{secnumdepth}{-1}"
