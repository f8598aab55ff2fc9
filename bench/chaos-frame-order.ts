/**
 * The order check of one SSE stream client across its connections. Frame ids are opaque text
 * (docs/api.md, "Resume (SSE)"), so nothing here parses them; what the docs do promise is enough:
 * on one connection an id, once left, never comes back (a delivery's frames and a heartbeat may
 * repeat the id just before them; a resumed connection's catch-up frames carry the id it resumed
 * from until the last one), and a data frame never carries an id the client already received a
 * data frame with, on this connection or an earlier one, except that catch-up's repeats of the
 * id it resumed from.
 */
export class SseFrameOrder {
  /** Ids of every data frame this client received, over all its connections. */
  private readonly dataIds = new Set<string>();
  /** Ids this connection moved past. */
  private left = new Set<string>();
  private current: string | null = null;

  /** A new connection: its `connected` frame's id (the resumed-from id when it resumed). */
  connected(id: string): void {
    this.left = new Set();
    this.current = id;
  }

  /** A frame with a resume point (`data`: it carries rows); why it is out of order, or null. */
  frame(id: string, data: boolean): string | null {
    let wrong: string | null = null;
    if (id !== this.current) {
      if (this.left.has(id)) wrong = `id ${id} again after ${this.current ?? 'nothing'}`;
      else if (data && this.dataIds.has(id)) wrong = `data frame ${id} delivered twice`;
      if (this.current !== null) this.left.add(this.current);
      this.current = id;
    }
    if (data) this.dataIds.add(id);
    return wrong;
  }
}
