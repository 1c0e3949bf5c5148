// What moves records between the device and the server (ADR-0049): the upload engine
// (upload/, ADR-0018) and the pull replication (replication.ts, ADR-0015). It may import
// src/lib/store, src/lib/data and src/lib/http; neither the store nor the data layer imports it.
// The offline feature starts both through this index.
export * from './upload';
export {
  changeStream,
  decide,
  forgetPullCheckpoints,
  pullRunsInWorker,
  REPLICATED_ENTITIES,
  startReplication,
  tokenSubject,
  type Checkpoint,
  type EventSourceFactory,
  type EventSourceLike,
  type Replication,
  type ReplicationOptions,
  type StreamUrl,
} from './replication';
