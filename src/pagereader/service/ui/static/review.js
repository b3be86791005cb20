// Review queue keyboard: j/k next/previous, a approve, e edit, u unreadable,
// Ctrl+Enter saves an edit, Escape leaves the text box.
"use strict";
(function () {
  const items = Array.from(document.querySelectorAll(".queue > .item"));
  if (!items.length) return;
  let current = items.findIndex((el) => el.dataset.decided === "0" && el.dataset.verdict === "review");
  if (current < 0) current = items.findIndex((el) => el.dataset.decided === "0" && el.dataset.verdict !== "accept");
  if (current < 0) current = 0;
  function show(index) {
    current = Math.max(0, Math.min(items.length - 1, index));
    items.forEach((el, i) => el.classList.toggle("current", i === current));
    const folded = items[current].closest("details");
    if (folded && !folded.open) folded.open = true;
    items[current].scrollIntoView({ block: "nearest" });
  }
  function submit(selector) {
    const form = items[current].querySelector(selector);
    if (form) form.querySelector("button").click();
  }
  items.forEach((el, i) => el.addEventListener("click", () => { if (current !== i) show(i); }));
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLTextAreaElement) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); target.form.requestSubmit(); }
      else if (event.key === "Escape") { target.blur(); }
      return;
    }
    if (target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "j") show(current + 1);
    else if (event.key === "k") show(current - 1);
    else if (event.key === "a") submit("form.approve");
    else if (event.key === "u") submit("form.unreadable");
    else if (event.key === "e") {
      const box = items[current].querySelector("textarea");
      if (box) { event.preventDefault(); box.focus(); box.select(); }
    } else return;
    event.preventDefault();
  });
  show(current);
})();
