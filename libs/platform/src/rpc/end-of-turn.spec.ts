import { EndOfTurn } from './end-of-turn.js';

describe('EndOfTurn', () => {
  it('runs the tasks of one turn together once the turn has ended, in the order given', async () => {
    const endOfTurn = new EndOfTurn();
    const ran: string[] = [];
    endOfTurn.run(() => ran.push('a'));
    await Promise.resolve(); // microtasks of the same turn: still waiting
    endOfTurn.run(() => ran.push('b'));
    expect(ran).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a', 'b']);
  });

  it('reports a task that throws and still runs the ones behind it', async () => {
    const errors: unknown[] = [];
    const endOfTurn = new EndOfTurn((error) => errors.push(error));
    const ran: string[] = [];
    endOfTurn.run(() => {
      throw new Error('refused');
    });
    endOfTurn.run(() => ran.push('after'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['after']);
    expect(errors).toEqual([new Error('refused')]);
  });

  it('a task queued while the queue runs waits for the next turn', async () => {
    const endOfTurn = new EndOfTurn();
    const ran: string[] = [];
    endOfTurn.run(() => {
      ran.push('first');
      endOfTurn.run(() => ran.push('second'));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['first']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['first', 'second']);
  });
});
