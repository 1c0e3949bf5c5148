// Picks a record's position (lat/lng): a click on the map or a dragged marker, the device's
// position, or the numbers typed in. The inputs always work, map or no map.
import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Grid, TextField } from '@mui/material';
import ClearIcon from '@mui/icons-material/Clear';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import { DEFAULT_ZOOM, isLatLng, parseCoord, PLACE_ZOOM, type LatLng } from './coords';
import { currentPosition, GeoError } from './geolocation';
import { LazyMap } from './LazyMap';
import { useSay } from '../../lib/session';

export interface LocationValue {
  lat: number | null;
  lng: number | null;
}

/** What a form may hold for a coordinate: a number, the text of an input, or nothing. */
export type CoordInput = number | string | null | undefined;

export interface LocationPickerProps {
  /** EntityForm values can be passed as they are (`{ lat: values.lat, lng: values.lng }`). */
  value: { lat: CoordInput; lng: CoordInput };
  onChange: (value: LocationValue) => void;
  /** Where the map opens when no position is set (e.g. the record's territory centre). */
  defaultCenter: LatLng;
  /** Messages of the form (EntityForm's `errors.lat` / `errors.lng`). */
  errors?: { lat?: string; lng?: string };
  disabled?: boolean;
  /** Map height in px (default 300). */
  height?: number;
}

function text(value: number | null): string {
  return value === null || Number.isNaN(value) ? '' : String(value);
}

function toCoord(value: CoordInput): number | null {
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? parseCoord(value) : null;
}

/** Typed text is kept as typed until it is a number, so '-1.' can become '-1.5'. */
function useCoordText(value: LocationValue) {
  const [typed, setTyped] = useState<{ lat: string; lng: string; from: LocationValue }>({
    lat: text(value.lat),
    lng: text(value.lng),
    from: value,
  });
  // A position set elsewhere (map, device) replaces what was typed.
  if (!Object.is(typed.from.lat, value.lat) || !Object.is(typed.from.lng, value.lng)) {
    const next = { lat: text(value.lat), lng: text(value.lng), from: value };
    setTyped(next);
    return { typed: next, setTyped };
  }
  return { typed, setTyped };
}

export function LocationPicker({ value: input, onChange, defaultCenter, errors, disabled, height = 300 }: LocationPickerProps) {
  const value: LocationValue = { lat: toCoord(input.lat), lng: toCoord(input.lng) };
  const t = useSay();
  const { typed, setTyped } = useCoordText(value);
  const [locating, setLocating] = useState(false);
  const [geoError, setGeoError] = useState<string | null>(null);
  const [focus, setFocus] = useState<LatLng | null>(null);
  const position = isLatLng(value as Partial<LatLng>) ? (value as LatLng) : null;

  const set = (next: LatLng, move: boolean) => {
    onChange(next);
    if (move) setFocus(next);
  };

  const type = (axis: 'lat' | 'lng', input: string) => {
    const next = { ...value, [axis]: parseCoord(input) };
    setTyped({ ...typed, [axis]: input, from: next });
    onChange(next);
  };

  const locate = async () => {
    setLocating(true);
    setGeoError(null);
    try {
      const found = await currentPosition();
      set({ lat: found.lat, lng: found.lng }, true);
    } catch (error) {
      setGeoError(t(`location.error.${error instanceof GeoError ? error.reason : 'unavailable'}`));
    } finally {
      setLocating(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <LazyMap
        center={position ?? defaultCenter}
        zoom={position ? PLACE_ZOOM : DEFAULT_ZOOM}
        focus={focus}
        markers={position ? [{ ...position, id: 'picked', draggable: !disabled, title: t('location.picked') }] : []}
        onMapClick={disabled ? undefined : (p) => set(p, false)}
        onMarkerDragEnd={(_id, p) => set(p, false)}
        height={height}
        ariaLabel={t('location.mapLabel')}
        unavailableText={t('location.mapUnavailable')}
      />
      <Grid container spacing={2} sx={{ alignItems: 'flex-start' }}>
        {(['lat', 'lng'] as const).map((axis) => (
          <Grid key={axis} size={{ xs: 6, sm: 4 }}>
            <TextField
              label={t(`location.${axis}`)}
              value={typed[axis]}
              disabled={disabled}
              error={Boolean(errors?.[axis])}
              helperText={errors?.[axis]}
              fullWidth
              onChange={(event) => type(axis, event.target.value)}
              onBlur={() => position && setFocus(position)}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `location-${axis}` } }}
            />
          </Grid>
        ))}
        <Grid size={{ xs: 12, sm: 4 }} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            onClick={() => void locate()}
            disabled={disabled || locating}
            startIcon={locating ? <CircularProgress size={16} /> : <MyLocationIcon />}
          >
            {t('location.useMyPosition')}
          </Button>
          {position && !disabled && (
            <Button onClick={() => onChange({ lat: null, lng: null })} startIcon={<ClearIcon />}>
              {t('location.clear')}
            </Button>
          )}
        </Grid>
      </Grid>
      {!position && !geoError && <Box sx={{ color: 'text.secondary', typography: 'body2' }}>{t('location.hint')}</Box>}
      {geoError && (
        <Alert severity="warning" onClose={() => setGeoError(null)}>
          {geoError}
        </Alert>
      )}
    </Box>
  );
}
