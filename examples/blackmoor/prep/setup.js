// 黑沼 · Blackmoor: the module's setup. A prep script only plans: the engine checks every
// operation against the room before any runs. In the prep phase (.phase prep) the keeper's
// model calls run_prep_plan(script_ref="blackmoor/prep/setup.js") to preview it, then with
// apply: true to run it. Import the world card first: it declares peat_memory.
const threads = [
  ['周衡的下落', '省测绘局的测绘员，三个月前进了黑沼，再没出来。委托人是他的妹妹。'],
  ['自鸣的钟', '涨潮时礼拜堂的钟会自己响。村里人说，钟声是在点名。'],
  ['老秦的儿子', '十年前溺死在礼拜堂下。老秦从不提他，可每回钟响都会停下桨。'],
];
for (const [label, notes] of threads) plan('thread_note', {label: label, notes: notes});
plan('keeper_note', {
  title: '真相 · The truth',
  text: '周衡没有迷路：他一路量到了礼拜堂，泥炭把他吞了下去。铸钟的泥里掺着沼底的泥炭，' +
        '每吞下一个人，钟上就多一个名字。老秦的儿子是第一个，周衡是第三个。',
});
// The fen is half awake already: it has the boy and the surveyor.
plan('set_variable', {id: 'peat_memory', value: 4});
