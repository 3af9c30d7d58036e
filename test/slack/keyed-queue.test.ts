import { describe, expect, it } from 'vitest';
import { keyedQueue } from '../../src/slack/keyed-queue.js';

describe('keyedQueue', () => {
  it('runs one key in turn, other keys alongside, and goes on after a failure', async () => {
    const queue = keyedQueue();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a1 = queue('a', async () => {
      log.push('a1 start');
      await gate;
      log.push('a1 end');
      throw new Error('a1 failed');
    });
    const a2 = queue('a', async () => {
      log.push('a2');
      return 2;
    });
    const b1 = queue('b', async () => {
      log.push('b1');
      return 1;
    });
    expect(await b1).toBe(1);
    expect(log).toEqual(['a1 start', 'b1']);
    release();
    await expect(a1).rejects.toThrow('a1 failed');
    expect(await a2).toBe(2);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });
});
