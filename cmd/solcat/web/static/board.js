// A convenience, not a need: the pages work without it. Clicking a fixed
// queen again frees its row.
document.querySelectorAll('table.board.queens input[type=radio]').forEach((box) => {
  box.addEventListener('mousedown', () => { box.dataset.was = box.checked; });
  box.addEventListener('click', () => {
    if (box.dataset.was === 'true' && box.value !== '') {
      const any = document.querySelector(`input[name="${box.name}"][value=""]`);
      if (any) any.checked = true;
    }
  });
});
