// Talking to the server (docs/api.md, ADR-0049): the app's one axios client with its auth rules
// (api.ts), the entity API's one client and its typed errors, imported by the data layer and the
// upload engine alike, the reading of the server's error answers, and the few other calls that
// are neither entities nor screens (the installation's public settings, the map's markers).
export * from './entities';
export * from './errors';
export * from './forms';
export { api } from './api';
export { messageOf, serverFieldErrors, type FieldMessage } from './messages';
export { storedPublicConfig, toPublicConfig, usePublicConfig, type ContactDetails, type PublicConfig } from './publicConfig';
export {
  fetchGeoPlaces,
  fetchGeoView,
  JOB_GROUP,
  type GeoMarkers,
  type GeoPlaces,
  type GeoView,
  type JobPlace,
  type MarkerCluster,
  type MarkerPoint,
  type ProviderPlace,
} from './geoStats';
