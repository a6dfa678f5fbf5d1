// Self-check questions (perfstudies.self_checks): each form holds its answer and relative tolerance;
// a reader's number is accepted within that tolerance (0: exactly), by the rule Question.accepts states.
document.addEventListener("DOMContentLoaded", () => {
  // "1,234.5" (thousands grouped) and "0,25" (a decimal comma) read as numbers; a unit after the number is ignored.
  const parse = (text) => {
    let cleaned = text.trim().replace(/\u2212/g, "-").replace(/^([-+]?[\d.,]+).*$/, "$1");
    if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(cleaned)) cleaned = cleaned.replace(/,/g, "");
    else if (/^[-+]?\d*,\d+$/.test(cleaned)) cleaned = cleaned.replace(",", ".");
    return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned) ? Number(cleaned) : NaN;
  };
  for (const form of document.querySelectorAll("form.perfstudies-self-check")) {
    const answer = Number(form.dataset.answer), tolerance = Number(form.dataset.tolerance);
    const input = form.querySelector("input"), verdict = form.querySelector(".perfstudies-self-check-verdict");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const given = parse(input.value);
      form.classList.remove("perfstudies-right", "perfstudies-wrong");
      if (Number.isNaN(given)) {
        verdict.textContent = "Type a number, such as 12.5.";
        return;
      }
      const right = Math.abs(given - answer) <= tolerance * Math.abs(answer);
      form.classList.add(right ? "perfstudies-right" : "perfstudies-wrong");
      verdict.textContent = right ? `Right: ${form.dataset.shown} ${form.dataset.unit}.`
                                  : "Not yet: try again, or reread the section it draws on.";
    });
  }
});
