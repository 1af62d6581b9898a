// The page of index.html: loads one renderer and the two texts, then
// renders them when run.mjs calls window.peerRender().
(() => {
  const renderer = new URLSearchParams(location.search).get("r");
  const view = document.getElementById("view");

  const script = (src) =>
    new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.append(s);
    });
  const style = (href) => {
    const l = document.createElement("link");
    l.rel = "stylesheet";
    l.href = href;
    document.head.append(l);
  };

  const loaders = {
    // Monaco's AMD build (min/vs): editor.main sets MonacoEnvironment for its workers.
    async monaco() {
      await script("node_modules/monaco-editor/min/vs/loader.js");
      window.require.config({ paths: { vs: "node_modules/monaco-editor/min/vs" } });
      await new Promise((resolve, reject) => window.require(["vs/editor/editor.main"], resolve, reject));
    },
    async diff2html() {
      style("node_modules/diff2html/bundles/css/diff2html.min.css");
      await script("node_modules/diff/dist/diff.min.js");
      await script("node_modules/diff2html/bundles/js/diff2html-ui.min.js");
    },
  };

  const renderers = {
    // As VS Code opens a diff: side by side, the first change revealed once the diff is known.
    monaco({ path, original, proposed }) {
      const { editor, Uri } = window.monaco;
      const ed = editor.createDiffEditor(view, { automaticLayout: false, readOnly: true, originalEditable: false });
      ed.onDidUpdateDiff(() => ed.revealFirstDiff());
      ed.setModel({
        original: editor.createModel(original, "go", Uri.parse(`file:///a/${path}`)),
        modified: editor.createModel(proposed, "go", Uri.parse(`file:///b/${path}`)),
      });
      const modified = ed.getModifiedEditor();
      view.benchScroller = {
        get scrollTop() {
          return modified.getScrollTop();
        },
        set scrollTop(v) {
          modified.setScrollTop(v);
        },
        get scrollHeight() {
          return modified.getScrollHeight();
        },
        get clientHeight() {
          return modified.getLayoutInfo().height;
        },
      };
    },
    // A unified diff with 3 lines of context (jsdiff, diff2html's own dependency), drawn line by line and highlighted.
    diff2html({ path, original, proposed }) {
      const patch = window.Diff.createTwoFilesPatch(`a/${path}`, `b/${path}`, original, proposed);
      const ui = new window.Diff2HtmlUI(view, patch, { outputFormat: "line-by-line", drawFileList: false, highlight: true });
      ui.draw();
      ui.highlightCode();
    },
  };

  if (!loaders[renderer]) throw new Error(`unknown renderer ${renderer}: ?r=monaco or ?r=diff2html`);
  let texts = null;
  window.peerReady = Promise.all([
    loaders[renderer](),
    fetch("texts.json")
      .then((r) => r.json())
      .then((t) => (texts = t)),
  ]).then(() => true);
  window.peerRender = () => renderers[renderer](texts);
})();
