// Drag-and-drop for the upload form: a file dropped on the zone becomes the file input's file, so
// the form is sent exactly as when the file is picked. Without this script the picker still works.
(function () {
  'use strict';
  const zone = document.getElementById('drop-zone');
  const input = document.getElementById('file');
  const hint = document.getElementById('drop-hint');
  if (!zone || !input || !hint) return;

  function show() {
    hint.textContent = input.files && input.files.length ? `Chosen: ${input.files[0].name}` : 'Or drop the file here.';
  }

  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    if (!event.dataTransfer || event.dataTransfer.files.length === 0) return;
    input.files = event.dataTransfer.files;
    show();
  });
  input.addEventListener('change', show);
})();
