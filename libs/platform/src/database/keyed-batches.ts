/** A batch's answer for one item that failed on its own: that item's caller is rejected with `error`, the others are not. */
export class BatchItemFailure {
  constructor(readonly error: unknown) {}
}

/**
 * Runs work in batches, one batch per key at a time, as group commit does: the first item of a key runs at once (or
 * after `gatherMs`), and items that arrive while its batch runs wait and go together in the next one. Each caller's promise settles
 * with its own item's result (or the batch's error, or its own `BatchItemFailure`'s).
 */
export class KeyedBatches<Item, Result> {
  /** Items waiting for the batch in progress of their key, by key; a key is present while its batches run. */
  private readonly waiting = new Map<string, Array<{ item: Item; settle: (result: Promise<Result>) => void }>>();

  /**
   * `runBatch` answers one result per item, in the items' order (a `BatchItemFailure` for an item that failed alone).
   * `gatherMs`: how long a key's first item waits for others before its batch runs (items that finish together then go
   * in one batch, not in two).
   */
  constructor(
    private readonly runBatch: (key: string, items: Item[]) => Promise<Array<Result | BatchItemFailure>>,
    private readonly gatherMs = 0,
  ) {}

  add(key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve) => {
      const queue = this.waiting.get(key);
      const entry = { item, settle: resolve };
      if (queue) queue.push(entry);
      else {
        this.waiting.set(key, [entry]);
        void this.drain(key);
      }
    });
  }

  private async drain(key: string): Promise<void> {
    if (this.gatherMs > 0) await new Promise((resolve) => setTimeout(resolve, this.gatherMs));
    for (let queue = this.waiting.get(key)!; queue.length > 0; queue = this.waiting.get(key)!) {
      const batch = queue.splice(0);
      const results = this.runBatch(
        key,
        batch.map((entry) => entry.item),
      );
      batch.forEach((entry, index) => entry.settle(results.then((all) => itemResult(all[index]))));
      // The next batch starts when this one has ended, whichever way.
      await results.catch(() => undefined);
    }
    this.waiting.delete(key);
  }
}

function itemResult<Result>(answer: Result | BatchItemFailure): Result {
  if (answer instanceof BatchItemFailure) throw answer.error;
  return answer;
}

/**
 * Runs `items` in one batch; when that fails, each alone, so that one item's bad value fails only its own caller
 * (a consumer's batch-mates are not redelivered, nor dead-lettered, with it).
 */
export async function togetherOrEachAlone<Item, Result>(
  items: Item[],
  run: (items: Item[]) => Promise<Result[]>,
): Promise<Array<Result | BatchItemFailure>> {
  try {
    return await run(items);
  } catch (error) {
    if (items.length === 1) return [new BatchItemFailure(error)];
    return Promise.all(
      items.map((item) =>
        run([item]).then(
          ([result]) => result,
          (failure: unknown) => new BatchItemFailure(failure),
        ),
      ),
    );
  }
}
