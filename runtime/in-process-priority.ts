/**
 * In one process the pipeline and the API share the event loop, and the in-process bus runs one
 * consumer's round per turn. The stages a tick crosses on its way to the boards and the streams
 * go first, the nearest to the reader first (so what is in flight lands before new input is
 * taken): the API's changelog views, then the snapshot, then the normalizer. The opportunity
 * engines, closing lines and the sinks, which read the same topics, take the turns left.
 * The levels are far apart because a waiting stage gains a level per 250 ms: one level apart, an
 * engine batch or a sink that had waited a quarter of a second went ahead of newly arrived ticks
 * whenever the loop was busy, and a burst of ticks reached the boards 200-500 ms late.
 * Five levels apart, the tick path keeps its place unless a stage has waited 1.25 s.
 * Above them all, the replicas following the accounts topic: a revoked key must be refused by
 * every instance on the next request, not after the tick path's turns (a consumer added on the
 * same topic, the alert deliverer's lease, once queued ahead of them and a revoked key was
 * accepted by the other instance).
 */
const ACCOUNT_FOLLOWERS = 'api-accounts-';
export function inProcessPriority(replicaId: string): (groupId: string) => number {
  const views = `api-${replicaId}-`;
  return (groupId) =>
    groupId.startsWith(ACCOUNT_FOLLOWERS)
      ? 20
      : groupId.startsWith(views)
        ? 15
        : groupId === 'snapshot'
          ? 10
          : groupId === 'normalizer'
            ? 5
            : 0;
}
