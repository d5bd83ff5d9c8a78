import type { Change } from "../../../db/changes";
import type { RawQuery } from "../../../db/raw";
import { SearchIndex } from "./search-index";
import { hasChanges, noChanges, readChanges, type ChangedRows } from "./catalogue-rows";

/**
 * The index as this process keeps it: built on the first search, then updated in place as notifications
 * name the products that changed (db/changes.ts, ADR 0014), right away rather than at the next search. It
 * is built again only when it may have missed something: a lost LISTEN connection, a change to more
 * products than one notification names, a new product it can't place.
 */
export class LiveSearchIndex {
  private index?: SearchIndex;
  /** What changed since the index was read or updated; `everything`: it must be read again. */
  private pending = noChanges();
  private everything = false;
  /** Updates and builds run one at a time, in the order the changes came. */
  private settling?: Promise<void>;
  /** This process's own writes, until their notifications came back: searches wait for them. */
  private writes?: Promise<unknown>;
  private run?: RawQuery;
  private lastBuildMs = 0;
  private lastUpdateMs = 0;

  /** Searches are answered without waiting for a first build. */
  get built(): boolean {
    return this.index !== undefined;
  }

  /** Products in the index now, its last build's and last update's time (for /api/metrics). */
  get stats(): { products: number; lastBuildSeconds: number; lastUpdateSeconds: number } {
    return {
      products: this.index?.size ?? 0,
      lastBuildSeconds: this.lastBuildMs / 1000,
      lastUpdateSeconds: this.lastUpdateMs / 1000,
    };
  }

  async get(run: RawQuery): Promise<SearchIndex> {
    this.run = run;
    if (this.writes) await this.writes;
    if (!this.index || this.everything || hasChanges(this.pending) || this.settling) await this.settle(run);
    return this.index!;
  }

  /** A notification: the products it names are updated now, anything wider is read again. */
  changed(change: Change): void {
    const { pending } = this;
    switch (change.kind) {
      case "products":
      case "stock":
        if (change.ids === undefined) {
          if (change.kind === "products") this.everything = true;
          else pending.allStock = true;
        } else for (const id of change.ids) pending[change.kind].add(id);
        break;
      case "categories":
        pending.categories = true;
        break;
      case "links":
        pending.links = true;
        break;
      case "catalog":
        this.everything = true;
        break;
      default:
        return; // holds and references don't touch what the index reads
    }
    if (this.index && this.run && !this.settling) void this.settle(this.run).catch(() => {}); // retried by the next search
  }

  /** A write of this process: searches wait until its notification came back and was applied. */
  awaitWrite(notified: Promise<unknown>): void {
    const writes: Promise<unknown> = Promise.all([this.writes, notified]).finally(() => {
      if (this.writes === writes) this.writes = undefined;
    });
    this.writes = writes;
  }

  private settle(run: RawQuery): Promise<void> {
    this.settling ??= (async () => {
      await null; // so `settling` is set before the loop can end
      try {
        for (;;) {
          if (!this.index || this.everything) await this.load(run);
          else if (hasChanges(this.pending)) await this.update(run, this.index);
          else return;
        }
      } finally {
        this.settling = undefined;
      }
    })();
    return this.settling;
  }

  private async load(run: RawQuery) {
    // What changed before now is in what is read; what changes meanwhile is applied to it after.
    this.everything = false;
    this.pending = noChanges();
    const started = performance.now();
    try {
      this.index = await SearchIndex.load(run);
      this.lastBuildMs = performance.now() - started;
      collectBuildGarbage();
    } catch (error) {
      this.everything = true;
      throw error;
    }
  }

  private async update(run: RawQuery, index: SearchIndex) {
    const changes = this.pending;
    this.pending = noChanges();
    let rows: ChangedRows;
    try {
      rows = await readChanges(run, changes);
    } catch (error) {
      // Not applied: it waits for the next try, with what came meanwhile.
      for (const id of changes.products) this.pending.products.add(id);
      for (const id of changes.stock) this.pending.stock.add(id);
      this.pending.allStock ||= changes.allStock;
      this.pending.categories ||= changes.categories;
      this.pending.links ||= changes.links;
      throw error;
    }
    const started = performance.now();
    if (!index.apply(changes, rows)) this.everything = true;
    this.lastUpdateMs = performance.now() - started;
  }
}

/**
 * A build reads every product's texts: at 100k products ~230 MB that V8 has moved to its old generation by
 * the end, and collects only at its next full collection — ~17 s into full load, never on an idle process.
 * Meanwhile the process holds that memory and young-generation collections are slower (~2.0 ms against ~1.7
 * ms right after a build). `npm run serve` exposes gc() (ADR 0011), so it goes at once: one ~45 ms pause.
 * Twice: the first collection frees the rows, but V8 chooses the pages to compact by the free space it knew
 * when it started (none yet), so the index's objects stay spread over ~190 MB of pages; the second moves them
 * together and gives ~140 MB back to the system (500 → 360 MB of RSS at 100k products).
 */
function collectBuildGarbage() {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}
