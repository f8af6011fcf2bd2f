// The one HTML page of `mesh web`; its script (app.js) is the browser bundle built from src/web/client/.
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lattice Mesh</title>
<style>
  :root { --bg: #0f1419; --panel: #161c23; --line: #2a333d; --text: #d8dee6; --dim: #8a96a3; --ok: #3fb950; --warn: #d29922; --bad: #f85149; --path: #58a6ff; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--text); height: 100vh; display: grid; grid-template-rows: auto 1fr; }
  header { display: flex; gap: 16px; align-items: baseline; padding: 10px 16px; border-bottom: 1px solid var(--line); }
  header h1 { font-size: 16px; margin: 0; }
  #status { color: var(--dim); }
  #status.down { color: var(--bad); }
  main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(360px, 2fr); min-height: 0; }
  #graph { position: relative; border-right: 1px solid var(--line); min-height: 0; }
  #cy { position: absolute; inset: 0; }
  #tooltip { position: absolute; pointer-events: none; background: var(--panel); border: 1px solid var(--line); padding: 6px 8px; font: 12px ui-monospace, monospace; max-width: 420px; white-space: pre-wrap; display: none; z-index: 2; }
  aside { overflow: auto; padding: 12px 16px; display: flex; flex-direction: column; gap: 14px; }
  section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
  section h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--dim); margin: 0 0 8px; }
  table { width: 100%; border-collapse: collapse; font-size: 12px; }
  th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid var(--line); white-space: nowrap; }
  td.state-alive { color: var(--ok); } td.state-suspect { color: var(--warn); } td.state-expired, td.state-leaving, td.state-gone { color: var(--bad); }
  form { display: flex; gap: 6px; }
  input[type=text] { flex: 1; background: var(--bg); color: var(--text); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; }
  button { background: #238636; color: white; border: 0; border-radius: 4px; padding: 6px 12px; cursor: pointer; }
  button:disabled { opacity: .5; }
  ol#chain { margin: 8px 0 0; padding-left: 22px; font: 12px ui-monospace, monospace; }
  ol#chain li { margin-bottom: 6px; }
  ol#chain .quote { color: var(--dim); display: block; }
  #answer-meta { color: var(--dim); font-size: 12px; }
  #answer-error { color: var(--bad); }
  ul#feed { list-style: none; margin: 0; padding: 0; font-size: 12px; }
  ul#feed li { padding: 4px 0; border-bottom: 1px solid var(--line); cursor: pointer; }
  ul#feed li:hover { color: var(--path); }
  #scope-detail { font-size: 12px; }
  .dim { color: var(--dim); }
  ol#chain li { cursor: pointer; }
  ol#chain li:hover { color: var(--path); }
  #cite-head.match { color: var(--ok); } #cite-head.changed, #cite-head.missing { color: var(--bad); }
  pre#cite-lines { margin: 6px 0 0; max-height: 260px; overflow: auto; font: 12px ui-monospace, monospace; background: var(--bg); padding: 6px; }
  pre#cite-lines:empty { display: none; }
  #audit-form { margin-bottom: 6px; flex-wrap: wrap; }
  select, input[type=date] { background: var(--bg); color: var(--text); border: 1px solid var(--line); border-radius: 4px; padding: 4px; }
  table#audit td:last-child { white-space: normal; }
  table#audit tr[data-kind=answer] { cursor: pointer; }
</style>
</head>
<body>
<header><h1>Lattice Mesh</h1><span id="root" class="dim"></span><span id="status">connecting…</span></header>
<main>
  <div id="graph"><div id="cy"></div><div id="tooltip"></div></div>
  <aside>
    <section id="ask-panel">
      <h2>Ask</h2>
      <form id="ask-form"><input id="question" type="text" placeholder="How does the e1000 driver allocate DMA buffers?" autocomplete="off"><button id="ask-button" type="submit">Ask</button></form>
      <div id="answer-meta"></div><div id="answer-error"></div>
      <ol id="chain"></ol>
    </section>
    <section id="cite-panel"><h2>Cited lines</h2><div id="cite-head" class="dim">Click a step of the chain to read its lines, re-hashed now.</div><pre id="cite-lines"></pre></section>
    <section><h2>Scope</h2><div id="scope-detail" class="dim">Click a scope in the graph.</div></section>
    <section><h2>Agents</h2><table id="agents"><thead><tr><th>scope</th><th>id</th><th>host</th><th>state</th><th>load</th><th>index</th><th>up</th></tr></thead><tbody></tbody></table></section>
    <section><h2>Answers</h2><ul id="feed"></ul></section>
    <section id="audit-panel">
      <h2>Audit</h2>
      <form id="audit-form">
        <select id="audit-scope"><option value="">any scope</option></select>
        <select id="audit-verdict"><option value="">any verdict</option><option>accepted</option><option>rejected</option><option>none</option><option>complete</option><option>partial</option><option>blocked</option></select>
        <input id="audit-since" type="date" title="recorded on or after">
        <button type="submit">Filter</button>
      </form>
      <table id="audit"><thead><tr><th>when</th><th>kind</th><th>scopes</th><th>verdict</th><th>what</th></tr></thead><tbody></tbody></table>
    </section>
  </aside>
</main>
<script src="app.js?token=__TOKEN__"></script>
</body>
</html>
`;
