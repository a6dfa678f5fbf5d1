// Loaded between RequireJS and the ipywidgets HTML manager (see offline_assets.py).
(function () {
  // 1. Map the manager's module to this site's copy, so the fonts it loads resolve here.
  var vendor = document.currentScript.src.replace(/[^/]*(\?.*)?$/, "");
  require.config({ paths: { "@jupyter-widgets/html-manager/dist": vendor + "html-manager" } });

  // 2. The manager typesets widget labels with MathJax 2's MathJax.Hub.Queue; the book
  //    runs MathJax 3, which has no Hub. Translate the one call it makes.
  function addHub() {
    if (window.MathJax && window.MathJax.version && !window.MathJax.Hub) {
      window.MathJax.Hub = {
        Queue: function (job) {
          if (window.MathJax.typesetPromise && job && job[2]) { window.MathJax.typesetPromise([job[2]]); }
        },
      };
    }
  }
  addHub();
  document.addEventListener("DOMContentLoaded", addHub);
})();
