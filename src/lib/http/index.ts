// The entity API's one client and its typed errors (docs/api.md): imported by the data layer
// and the upload engine alike.
export * from './entities';
export * from './errors';
export * from './forms';
