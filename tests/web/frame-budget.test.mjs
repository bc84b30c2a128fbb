// How many steps a playing run trains a frame (web/src/run/frame-budget.js),
// against calls whose cost is simulated: the count settles where a call fits
// the frame's training budget, grows at most twofold a frame, shrinks when
// the machine slows, and is not misled by a chunk cut short. This is what
// keeps a trained model's frames short on any machine; the browser tests
// print the frame times a real run had (test-results/), without timing them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { perCallBudget, perStepBudget } from '../../web/src/run/frame-budget.js';

const BUDGET_MS = 10;

// Plays `frames` frames through `budget`: a call of k steps costs cost(k, frame) ms.
function play(budget, frames, cost, { asked = (chunk) => chunk, ran = (k) => k } = {}) {
  const planned = [];
  for (let frame = 0; frame < frames; frame += 1) {
    const chunk = budget.chunk();
    const k = asked(chunk, frame);
    const steps = ran(k, frame);
    planned.push({ chunk, ms: cost(steps, frame) });
    budget.measured({ asked: k, chunk, ran: steps, ms: cost(steps, frame) });
  }
  return planned;
}

test('a call of a fixed part and a part per step settles where the whole call fits the budget', () => {
  // The attention model's calls: 4 ms (the held-out evaluation) + 0.5 ms a step.
  const cost = (k) => 4 + 0.5 * k;
  const planned = play(perCallBudget(BUDGET_MS), 30, cost);
  assert.deepEqual(planned.slice(0, 4).map((p) => p.chunk), [1, 2, 4, 6], 'from one step, at most doubling');
  for (let i = 1; i < planned.length; i += 1) assert.ok(planned[i].chunk <= 2 * planned[i - 1].chunk, `frame ${i}: at most twice the last`);
  const settled = planned.slice(10);
  for (const { chunk, ms } of settled) {
    assert.ok(ms <= BUDGET_MS, `${chunk} steps take ${ms} ms`);
    assert.ok(cost(chunk + 2) > BUDGET_MS, `${chunk} steps: close to what fits`);
  }
});

test('a slower machine gets fewer steps a frame, a faster one more, each within the budget', () => {
  // Three times slower from frame 20 (two CPU hogs beside the browser), fast again from frame 40.
  const cost = (k, frame) => (frame >= 20 && frame < 40 ? 3 : 1) * (2 + 0.25 * k);
  const planned = play(perCallBudget(BUDGET_MS), 60, cost);
  const at = (frame) => planned[frame].chunk;
  assert.ok(at(19) >= 28, `fast: ${at(19)} steps`);
  assert.ok(at(21) < at(19), 'the first slow frame shrinks the next');
  for (const frame of [25, 30, 39]) {
    assert.ok(planned[frame].ms <= BUDGET_MS, `slow frame ${frame}: ${planned[frame].ms} ms`);
    assert.ok(at(frame) <= 5, `slow frame ${frame}: ${at(frame)} steps`);
  }
  assert.equal(at(59), at(19), 'fast again, the same count as before');
  for (let i = 1; i < planned.length; i += 1) assert.ok(at(i) <= 2 * at(i - 1), `frame ${i}: at most twice the last`);
});

test('a chunk cut short (the run\'s end, an evaluation, a divergence) says nothing of the pace', () => {
  const cost = (k) => 1 + 0.5 * k;
  // Every third frame the run stops early after one step: cheap, but it must not grow the chunk.
  const planned = play(perCallBudget(BUDGET_MS), 30, cost, { ran: (k, frame) => (frame % 3 === 2 ? 1 : k) });
  for (const { chunk } of planned.slice(10)) assert.ok(cost(chunk) <= BUDGET_MS, `${chunk} steps fit`);
  // A frame that asked for fewer steps than planned (the steps due at a set pace): not measured either.
  const paced = play(perCallBudget(BUDGET_MS), 30, cost, { asked: (chunk) => Math.min(chunk, 2) });
  // Frames 0 and 1 asked for all of their 1 and 2 steps: measured, so the plan went to 4 and stays there.
  assert.deepEqual(paced.map((p) => p.chunk).slice(0, 3), [1, 2, 4]);
  assert.deepEqual([...new Set(paced.slice(2).map((p) => p.chunk))], [4], 'the plan stays where the last whole chunk left it');
});

test('a budget given as a function is read at each plan: the chunk follows it', () => {
  // Off the thread the budget follows the page's drawing time: 20 ms, then 80 ms from frame 15.
  const cost = (k) => 1 + 2 * k;
  let budgetMs = 20;
  const budget = perCallBudget(() => budgetMs);
  const planned = [];
  for (let frame = 0; frame < 30; frame += 1) {
    if (frame === 15) budgetMs = 80;
    const chunk = budget.chunk();
    planned.push(chunk);
    budget.measured({ asked: chunk, chunk, ran: chunk, ms: cost(chunk) });
  }
  assert.equal(planned[14], 9, 'the most steps within 20 ms: 9 (19 ms)');
  assert.equal(planned[29], 39, 'the most steps within 80 ms: 39 (79 ms)');
});

test('reset measures again from one step', () => {
  const budget = perCallBudget(BUDGET_MS);
  play(budget, 20, (k) => 0.5 * k);
  budget.reset();
  assert.equal(budget.chunk(), 1);
});

test('a call that costs the same per step fills the budget at the last measured pace', () => {
  const budget = perStepBudget(8);
  assert.equal(budget.chunk(), 8, 'one millisecond a step until measured');
  budget.measured({ ran: 10, ms: 2 });
  assert.equal(budget.chunk(), 40);
  budget.measured({ ran: 0, ms: 5 });
  assert.equal(budget.chunk(), 40, 'a call that ran nothing measures nothing');
  budget.measured({ ran: 1, ms: 100 });
  assert.equal(budget.chunk(), 1, 'never below one step');
  budget.reset();
  assert.equal(budget.chunk(), 8);
});
