// Search from a page opened as a file (file://): Sphinx's search lists the matching pages from
// searchindex.js, loaded by a script tag, then fetches each page for the snippet under its result,
// and a browser refuses every such fetch between files (a CORS error in the console for each
// result). There, the results are listed without snippets; served over http they keep them.
if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
  DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
}
