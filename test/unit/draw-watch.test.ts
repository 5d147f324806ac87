// The Tools, Resources and Prompts views' watch for an open row VS Code drew empty: it asks for one more
// redraw when VS Code never asked for an open row's children, and not when it did, when the person closed
// the row, or when the view is hidden; a row it never hears of three times counts as closed.
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ASK_WITHIN_MS, DrawWatch, MISSES_BEFORE_CLOSED, type WatchedView } from '../../src/vscode/trees/draw-watch';

type Row = { id: string };
type Listener = (e: { readonly element: Row }) => unknown;

/** A view the way VS Code's TreeView reports to an extension: visibility and the person's expand/collapse. */
function view(): WatchedView<Row> & { visible: boolean; expand(row: Row): void; collapse(row: Row): void } {
  const expand = new Set<Listener>();
  const collapse = new Set<Listener>();
  const on = (set: Set<Listener>) => (l: Listener) => (set.add(l), { dispose: () => set.delete(l) });
  return {
    visible: true,
    title: 'Tools',
    onDidExpandElement: on(expand),
    onDidCollapseElement: on(collapse),
    expand: (element) => expand.forEach((l) => l({ element })),
    collapse: (element) => collapse.forEach((l) => l({ element })),
  };
}

function rig(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let redraws = 0;
  const logged: string[] = [];
  const watch = new DrawWatch<Row>(() => redraws++);
  const v = view();
  watch.attach(v, (m) => logged.push(m));
  t.after(() => watch.dispose());
  const wait = () => t.mock.timers.tick(ASK_WITHIN_MS);
  return { watch, v, wait, logged, redraws: () => redraws };
}

describe('DrawWatch', () => {
  test('an open row whose children VS Code never asked for is drawn again, and the log says which', (t) => {
    const { watch, wait, logged, redraws } = rig(t);
    watch.drawn({ id: 'group:mcpAgent.servers' }, 'group:mcpAgent.servers', 'open');
    wait();
    assert.equal(redraws(), 1);
    assert.match(logged[0]!, /^Tools: VS Code drew group:mcpAgent\.servers open without asking for the rows under it; drawn again$/);
  });

  test('an open row whose children were asked for, a closed row and a leaf need nothing', (t) => {
    const { watch, wait, redraws } = rig(t);
    const group = { id: 'g' };
    watch.drawn(group, 'g', 'open');
    watch.drawn({ id: 'c' }, 'c', 'closed');
    watch.drawn({ id: 'l' }, 'l', 'leaf');
    watch.asked(group);
    wait();
    assert.equal(redraws(), 0);
  });

  test("what the person opened or closed outlives the row's default, also for a new object of the same id", (t) => {
    const { watch, v, wait, redraws } = rig(t);
    const closedByDefault = { id: 'server:many' };
    const openByDefault = { id: 'server:web' };
    watch.drawn(closedByDefault, closedByDefault.id, 'closed');
    watch.drawn(openByDefault, openByDefault.id, 'open');
    v.expand(closedByDefault);
    v.collapse(openByDefault);
    watch.asked(closedByDefault);
    wait();
    assert.equal(redraws(), 0, 'the closed row is not awaited');
    // The next draw: the person's opening holds for the row VS Code never asks about.
    watch.drawn({ id: 'server:many' }, 'server:many', 'closed');
    watch.drawn({ id: 'server:web' }, 'server:web', 'open');
    wait();
    assert.equal(redraws(), 1, 'the row the person opened was awaited');
  });

  test('a hidden view is not drawn again: VS Code asks for nothing there', (t) => {
    const { watch, v, wait, redraws } = rig(t);
    watch.drawn({ id: 'g' }, 'g', 'open');
    v.visible = false;
    wait();
    assert.equal(redraws(), 0);
  });

  test(`after ${MISSES_BEFORE_CLOSED} misses in a row a row counts as closed (closed before a reload), until the person opens it`, (t) => {
    const { watch, v, wait, redraws } = rig(t);
    const row = { id: 'g' };
    for (let i = 0; i < MISSES_BEFORE_CLOSED + 2; i++) {
      watch.drawn(row, 'g', 'open');
      wait();
    }
    assert.equal(redraws(), MISSES_BEFORE_CLOSED - 1);
    v.expand(row);
    watch.drawn(row, 'g', 'open');
    wait();
    assert.equal(redraws(), MISSES_BEFORE_CLOSED);
  });

  test('a watch never attached to a view does nothing', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let redraws = 0;
    const watch = new DrawWatch<Row>(() => redraws++);
    watch.drawn({ id: 'g' }, 'g', 'open');
    t.mock.timers.tick(ASK_WITHIN_MS);
    assert.equal(redraws, 0);
  });
});
