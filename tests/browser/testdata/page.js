// The test page of tests/browser: a button whose click changes #status a moment later (so that
// the test has to wait for it, as for a page that fetches data), a list filled from
// /api/items, and SVG nodes (as in a graph drawn by Graphviz) that say which was clicked.
window.addEventListener('DOMContentLoaded', () => {
  document.getElementById('go').addEventListener('click', () => {
    setTimeout(() => { document.getElementById('status').textContent = 'clicked'; }, 100);
  });
  for (const node of document.querySelectorAll('svg .node')) {
    node.addEventListener('click', () => { document.getElementById('picked').textContent = node.id; });
  }
  fetch('/api/items').then((r) => r.json()).then((items) => {
    const list = document.getElementById('items');
    for (const item of items) {
      const li = document.createElement('li');
      li.textContent = item;
      list.appendChild(li);
    }
  });
});
