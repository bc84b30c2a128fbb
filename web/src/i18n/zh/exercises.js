// 练习共用文字的简体中文目录（web/src/exercises/）；各题的题目在各节自己的文件里。
// 与 ../en/exercises.js 键相同。
export default {
  'exercises.title': '动手试一试',
  'exercises.progress': '已完成 {done} / {total} 题。',
  'exercises.wasReset': '你的答案已清除。',
  'exercises.reset': '清除我的答案',
  'exercises.check': '检查',
  'exercises.reveal': '显示答案',
  'exercises.another': '换一题',
  'exercises.yourAnswer': '你的答案',
  'exercises.taskNote': '调节本节的控件，然后点“检查”：它检查的是此刻图中的状态。',
  'exercises.hint': '提示：',
  'exercises.right': '正确。',
  'exercises.close': '接近了，误差在 10% 以内。',
  'exercises.wrong': '还不对。',
  'exercises.pickFirst': '请先选择一个答案。',
  'exercises.typeFirst': '请先输入一个数。',
  'exercises.cannotCheck': '现在无法检查：{reason}',
  'exercises.answerIs': '答案：{answer}',
  'exercises.answerChoice': '答案：“{choice}”。',
  'exercises.covered': '请先在下方作出预测：这张图会泄露答案。',
  'exercises.teacherNote': '教师提示：',
};
