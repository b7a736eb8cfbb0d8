import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createMediaWork } from '#server/domain/media/media-work.ts';

describe('the media work queue', () => {
  it('runs at most `concurrency` tasks at once, in the order they came', async () => {
    const work = createMediaWork(1);
    const order: string[] = [];
    let inside = 0;
    let most = 0;
    const task = (name: string) => () =>
      new Promise<string>((resolve) => {
        inside += 1;
        most = Math.max(most, inside);
        order.push(name);
        setTimeout(() => {
          inside -= 1;
          resolve(name);
        }, 10);
      });
    const results = await Promise.all(['a', 'b', 'c'].map((name) => work.run(task(name))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    expect(work.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('goes on after a failed task', async () => {
    const work = createMediaWork(1);
    await expect(work.run(() => Promise.reject(new Error('broken picture')))).rejects.toThrow('broken picture');
    await expect(work.run(async () => 'next')).resolves.toBe('next');
  });

  it.runIf(process.platform === 'linux')('keeps the image library threads at a lower CPU priority than the server', async () => {
    const work = createMediaWork(1);
    const encode = () =>
      sharp({ create: { width: 800, height: 600, channels: 3, background: '#2a6f97' } })
        .webp()
        .toBuffer();
    await work.run(encode);
    await work.run(encode);
    // Looked at while a task runs, as promised: libvips may start a thread after a task's last look (one was
    // seen at nice 0 on a busy machine once both tasks had ended); the next task lowers it before it runs.
    const priorities = () =>
      readdirSync('/proc/self/task')
        .filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').startsWith('libvips'))
        .map((tid) => getPriority(Number(tid)));
    let release = () => {};
    const running = work.run(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      expect(priorities().length).toBeGreaterThan(0);
      await expect.poll(() => priorities().filter((nice) => nice !== 19), { timeout: 5000 }).toEqual([]);
    } finally {
      release();
      await running;
    }
  });
});
