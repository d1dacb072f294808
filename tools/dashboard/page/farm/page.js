// `tg farm status --web`: a running coordinator's status, asked again every second.
import {poll, section, setStatus, setTitle, el} from "./common.js";
import {renderFarm} from "./farm_view.js";

const main = document.getElementById("main");
let last = null;
const render = () => {
  if (!last) return;
  setTitle(`tg farm status: ${last.endpoint}`);
  if (!last.ok) {
    setStatus(`no answer: ${last.error}`, "error");
    return;
  }
  setStatus(`updated ${new Date().toLocaleTimeString()}`);
  renderFarm(main, last.status, render);
};
section(main, "note", el("p", {class: "summary"}, "asking the coordinator..."));
poll("/api/farm", (data) => {
  last = data;
  render();
});
