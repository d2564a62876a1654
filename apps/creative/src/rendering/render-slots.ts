/**
 * At most `size` renders at once in one replica (each may hold a page of up to
 * 256 MiB of pixels); the others wait their turn in order, for at most
 * `maxWaitMs`, and then give up (the caller answers 503 with Retry-After).
 */
export class RenderSlots {
  private running = 0;
  private readonly waiting: Array<{ grant: () => void }> = [];

  constructor(private readonly size: number) {}

  /** Resolves with the release function once a slot is ours; false if none came within `maxWaitMs`. */
  acquire(maxWaitMs: number): Promise<(() => void) | false> {
    if (this.running < this.size) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        resolve(false);
      }, maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  get busy(): number {
    return this.running;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next in line (running stays the same).
      if (next) next.grant();
      else this.running -= 1;
    };
  }
}
