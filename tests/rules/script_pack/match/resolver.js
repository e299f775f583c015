// Pair match: every die 1 is a fumble; three equal dice a triple; otherwise a success when two
// dice sum to the target (the margin counts the pairs that do).
function resolve(check) {
  const faces = check.faces;
  const target = check.targets.target;
  if (faces.every((face) => face === 1)) return "snake-eyes";
  const counts = {};
  for (const face of faces) counts[face] = (counts[face] || 0) + 1;
  const triple = Object.keys(counts).find((face) => counts[face] >= 3);
  if (triple !== undefined) {
    return {verdict: "triple", effects: [{op: "flag", name: "triple_face", value: Number(triple)}]};
  }
  let pairs = 0;
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      if (faces[i] + faces[j] === target) pairs++;
    }
  }
  return pairs ? {verdict: "pair", margin: pairs} : {verdict: "miss", margin: 0, note: "no two dice make " + target};
}
