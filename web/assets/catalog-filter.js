// The filter of a catalog page: typing a control id ("ac-2", "AC-2(1)") or words hides the tree
// entries and controls that do not match. Plain ES2020, no dependencies, attached by ids that the
// server's catalog view writes (catalog-filter, catalog-filter-count, catalog-tree, catalog-text).
(function () {
  'use strict';
  const input = document.getElementById('catalog-filter');
  const count = document.getElementById('catalog-filter-count');
  const tree = document.getElementById('catalog-tree');
  const text = document.getElementById('catalog-text');
  if (!input || !count || !tree || !text) return;

  // "AC-2(1)", "ac-2.1", "ac2 (1)", "AC-02": a family, a number, an optional enhancement.
  const ID = /^([a-z]{1,5})-?0*(\d+)(?:[.(]0*(\d+)\)?)?$/;

  let index = null;
  let last = '';

  // Built after load rather than in it, so that the page is interactive first: the lower-cased text
  // of each control, once, instead of a copy of it in the page's HTML.
  function buildIndex() {
    const entries = new Map();
    for (const li of tree.querySelectorAll('li[data-control]')) entries.set(li.getAttribute('data-control'), li);
    return Array.from(text.querySelectorAll('article[data-control]'), (article) => {
      const id = article.getAttribute('data-control');
      return {
        id: id.toLowerCase(),
        article,
        entry: entries.get(id) || null,
        text: article.textContent.toLowerCase().replace(/\s+/g, ' '),
      };
    });
  }

  function matcher(query) {
    const id = ID.exec(query.replace(/\s+/g, ''));
    if (id) {
      const wanted = `${id[1]}-${id[2]}${id[3] ? `.${id[3]}` : ''}`;
      return (e) => e.id === wanted || e.id.startsWith(`${wanted}.`);
    }
    const words = query.split(' ').filter((w) => w !== '');
    return (e) => words.every((w) => e.text.includes(w));
  }

  function apply() {
    const query = input.value.trim().toLowerCase().replace(/\s+/g, ' ');
    if (query === last) return;
    last = query;
    index = index || buildIndex();
    const test = query === '' ? null : matcher(query);
    let shown = 0;
    for (const li of tree.querySelectorAll('li')) li.hidden = test !== null;
    for (const e of index) {
      const match = test === null || test(e);
      e.article.hidden = !match;
      if (!match) continue;
      shown++;
      // A match keeps its tree entry and the entries above it (its control, its groups) in view.
      for (let li = e.entry; li && li.hidden; li = li.parentElement && li.parentElement.closest('li'))
        li.hidden = false;
    }
    for (const section of text.querySelectorAll('section[data-group]')) {
      section.hidden = test !== null && section.querySelector('article[data-control]:not([hidden])') === null;
    }
    count.textContent = test === null ? '' : `${shown} of ${index.length} controls shown`;
  }

  input.addEventListener('input', apply);
  // The index is built once the page is idle, or when the reader reaches the box if that comes
  // first: never on the first keystroke, whose answer must come at once.
  const prepare = () => {
    index = index || buildIndex();
  };
  input.addEventListener('focus', prepare);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(prepare, { timeout: 2000 });
  else setTimeout(prepare, 500);
  // A reload can leave text in the box: filter by it.
  if (input.value !== '') apply();
})();
