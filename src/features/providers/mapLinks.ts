// The map's credit link ('© OpenStreetMap') sits in a line of text: underlined, it does not
// rely on colour alone (axe link-in-text-block). Spread into the sx of a map's container.
export const MAP_LINKS = { '& .maplibregl-ctrl-attrib a': { textDecoration: 'underline' } } as const;
