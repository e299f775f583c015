// 沼泽向导 · Fen guide: the peat remembers whoever reads it.
// After every Fen Lore (沼泽知识) check the keeper-only `peat_memory` rises: by 1, by 2 on a
// failure. The world card declares it (0-10), so the engine clamps every write; a counter kept
// in a JS global would reset each turn, this one persists.
on('dice_rolled', (roll) => {
  if (roll.kind !== 'check' || roll.skill !== '沼泽知识') return;
  incvar('peat_memory', roll.success ? 1 : 2);
});
// From 5 on, the keeper's prompt is told what the fen is about to do (players never see it).
on('turn_start', () => {
  if ((Number(getvar('peat_memory')) || 0) >= 5) {
    inject('泥炭的记忆已满五：今夜沉没礼拜堂的钟会响，钟声里会多出一个名字。');
  }
});
