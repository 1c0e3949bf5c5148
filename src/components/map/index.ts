// Maps (ADR-0026, ADR-0031): a location picker for forms, a read-only map for pages and the
// dashboard's clustered points. None imports MapLibre: it loads with the first map shown.
export { LocationPicker, type LocationPickerProps, type LocationValue } from './LocationPicker';
export { MapView, type MapViewProps } from './MapView';
export type { MapMarker, MapViewport } from './MapCanvas';
export { averageCenter, defaultCenter, DEFAULT_ZOOM, FALLBACK_CENTER, isLatLng, roundCoord, type LatLng } from './coords';
export { MAP_STYLE_URL, baseStyle, basemapUrl, mapStyle } from './mapStyle';
export type { CountedCluster, MapPoint, PointGroup } from './PointLayers';
export { JOB_MARKER_COLOR, PROVIDER_TYPE_COLORS, providerTypeColor, type ProviderType } from './markerColors';
