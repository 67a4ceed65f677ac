import tenfoot from "/tenfoot.js";

let openedFrom = null;

document.addEventListener("tenfoot:activated", (e) => {
  if (openedFrom || !e.target.closest("nav")) return;
  openedFrom = e.detail.id;
  const page = document.createElement("section");
  page.dataset.focusGroup = "page";
  page.dataset.focusTrap = "";
  page.innerHTML = `<h1></h1>
    <button data-focus-id="page-play">Play</button>
    <button data-focus-id="page-later">Watch later</button>`;
  page.querySelector("h1").textContent = e.target.textContent;
  document.body.append(page);
  tenfoot.focus("page-play");
});

document.addEventListener("tenfoot:back", () => {
  if (!openedFrom) return;
  document.querySelector("[data-focus-group=page]").remove();
  tenfoot.focus(openedFrom);
  openedFrom = null;
});
