// The harbour map: draws from the viewer's own variables, sends intents to the table.
(function () {
  "use strict";
  var places = [["pier", "The pier", "码头"], ["lighthouse", "The lighthouse", "灯塔"], ["chapel", "The fishermen's shrine", "渔民庙"]];
  function render(state) {
    var list = document.getElementById("places");
    list.textContent = "";
    places.forEach(function (place) {
      var item = document.createElement("li");
      var go = document.createElement("button");
      go.type = "button";
      go.textContent = place[1] + " / " + place[2];
      go.addEventListener("click", function () {
        parent.postMessage({type: "panel_intent", kind: "input", value: "我去" + place[2] + "。"}, "*");
      });
      item.appendChild(go);
      list.appendChild(item);
    });
    var clues = (state.variables || []).filter(function (v) { return v.id === "clues_found"; })[0];
    document.getElementById("clues").textContent = clues ? clues.label + ": " + clues.text : "";
  }
  window.addEventListener("message", function (event) {
    if (event.source === parent && event.data && event.data.type === "lw-state") { render(event.data); }
  });
  var rollButton = document.getElementById("roll");
  rollButton.addEventListener("click", function () {
    parent.postMessage({type: "panel_intent", kind: "roll", value: "1d100"}, "*");
  });
  rollButton.disabled = false;  // clickable only once a click does something
  parent.postMessage({type: "lw-ready"}, "*");
}());
