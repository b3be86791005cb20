// Document view: clicking a block's outline or its text highlights both.
"use strict";
(function () {
  function select(key, scroll) {
    document.querySelectorAll(".selected").forEach((el) => el.classList.remove("selected"));
    const items = document.querySelectorAll(`[data-key="${key}"]`);
    items.forEach((el) => el.classList.add("selected"));
    if (scroll) {
      const text = document.querySelector(`.text-block[data-key="${key}"]`);
      if (text) text.scrollIntoView({ block: "nearest" });
    }
  }
  document.querySelectorAll("g.outline").forEach((el) => el.addEventListener("click", () => select(el.dataset.key, true)));
  document.querySelectorAll(".text-block").forEach((el) => {
    el.addEventListener("click", () => select(el.dataset.key, false));
    el.addEventListener("keydown", (event) => { if (event.key === "Enter") select(el.dataset.key, false); });
  });
})();
