// Strain: the engine rolls 1d6; a roll above the character's Nerve rattles them and costs the
// whole roll, else half of it (rounded up). A rest (args.rest) restores everything; the
// engine clamps Nerve into [0, NerveMax].
function resolve(check) {
  const loss = check.faces[0];
  const nerve = check.targets.Nerve;
  if (check.args.rest) return {verdict: "steady", effects: [{op: "adjust", stat: "Nerve", by: 100}]};
  if (loss > nerve) {
    return {verdict: "rattled", effects: [{op: "adjust", stat: "Nerve", by: -loss}, {op: "note", text: "shaken"}]};
  }
  return {verdict: "steady", effects: [{op: "adjust", stat: "nerve", by: -Math.ceil(loss / 2)}]};
}
