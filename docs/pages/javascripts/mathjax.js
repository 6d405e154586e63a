// MathJax for pymdownx.arithmatex (generic mode): the methods page's formulas.
window.MathJax = {
  tex: { inlineMath: [["\\(", "\\)"]], displayMath: [["\\[", "\\]"]], processEscapes: true },
  options: { ignoreHtmlClass: ".*|", processHtmlClass: "arithmatex" },
};
document$.subscribe(() => {
  MathJax.typesetPromise();
});
