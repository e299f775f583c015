// The tension clock: every failed check advances `tension` (declared by the room, or a leaf
// of the variable tree); the meter shows it to the table each turn.
// State lives in the engine: a counter in a JS global would reset every turn.
on('dice_rolled', (roll) => {
  if (roll.success === false) incvar('tension', 1);
});
on('reply_ready', () => {
  const value = Math.min(8, Number(getvar('tension')) || 0);
  emitUI([{kind: 'meter', label: {en: 'Tension', zh: '紧张'}, value: value, min: 0, max: 8}],
         {panel: 'sidebar', id: 'tension-clock', replace: true});
});
