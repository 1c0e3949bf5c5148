// Maps (issue 5): a location picker for forms and a read-only map for pages. Neither imports
// MapLibre: it loads with the first map shown.
export { LocationPicker, type LocationPickerProps, type LocationValue } from './LocationPicker';
export { MapView, type MapViewProps } from './MapView';
export type { MapMarker } from './MapCanvas';
export { averageCenter, defaultCenter, DEFAULT_ZOOM, FALLBACK_CENTER, isLatLng, roundCoord, type LatLng } from './coords';
export { MAP_STYLE_URL, OSM_RASTER_STYLE, mapStyle } from './mapStyle';
