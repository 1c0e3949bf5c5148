// MapCanvas behind React.lazy, a WebGL check and an error boundary: a device without WebGL 2,
// a map chunk that cannot load (offline before it was cached) or a map that fails to start
// shows a message instead, and the rest of the page keeps working.
import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert, Skeleton } from '@mui/material';
import { useIntl } from 'react-intl';
import type { MapCanvasProps } from './MapCanvas';
import { hasWebGL2 } from './webgl';

const loadMapCanvas = () => import('./MapCanvas');
const MapCanvas = lazy(loadMapCanvas);

/** Starts loading MapLibre now (a screen that will show a map once its data arrives fetches
 * both at once); nothing happens on a device that cannot draw the map. */
export function preloadMap(): void {
  if (hasWebGL2()) loadMapCanvas().catch((error: unknown) => console.warn('Map chunk not preloaded:', error));
}

interface BoundaryProps {
  fallback: ReactNode;
  children: ReactNode;
}

class MapBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('Map unavailable:', error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export type LazyMapProps = Omit<MapCanvasProps, 'onUnavailable'> & {
  /** Text shown instead of the map when it cannot be drawn. */
  unavailableText?: string;
};

export function LazyMap({ unavailableText, ...props }: LazyMapProps) {
  const intl = useIntl();
  const [failed, setFailed] = useState(() => !hasWebGL2());
  const fallback = (
    <Alert severity="info" data-testid="map-unavailable">
      {unavailableText ?? intl.formatMessage({ id: 'map.unavailable' })}
    </Alert>
  );
  if (failed) return fallback;
  return (
    <MapBoundary fallback={fallback}>
      <Suspense fallback={<Skeleton variant="rectangular" height={props.height} aria-label={intl.formatMessage({ id: 'map.loading' })} />}>
        <MapCanvas
          {...props}
          onUnavailable={(error) => {
            console.warn('Map unavailable:', error);
            setFailed(true);
          }}
        />
      </Suspense>
    </MapBoundary>
  );
}
