// MapCanvas behind React.lazy, a WebGL check and an error boundary: a device without WebGL 2,
// a map chunk that cannot load (offline before it was cached) or a map that fails to start
// shows a message instead, and the rest of the page keeps working.
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Alert, Skeleton } from '@mui/material';
import type { MapCanvasProps } from './MapCanvas';
import { whenIdle } from '../../lib/util';
import { useNearScreen } from '../../lib/ui';
import { hasWebGL2 } from './webgl';
import { useSay } from '../../lib/session';

const MapCanvas = lazy(() => import('./MapCanvas'));

/** The longest a map waits for the page to be idle before it starts anyway. */
const MAP_START_MAX_WAIT_MS = 2_000;
/** How near the screen a map's place must come for it to start. */
const NEAR_SCREEN = '300px';

/**
 * True once the page was idle after the first render, and (`whenShown`) the map's place is on or
 * near the screen: the screen's own content (figures, charts, a form) is drawn first, and a map
 * far below it (the dashboard's, on a phone) starts when the user scrolls to it. MapLibre's code
 * is large: on a phone, evaluating it and starting the map are long tasks (ADR-0035).
 */
function useStartWhenShown(whenShown: boolean): [boolean, (element: Element | null) => void] {
  const [near, place] = useNearScreen(NEAR_SCREEN, whenShown);
  const [due, setDue] = useState(false);
  useEffect(() => (near ? whenIdle(() => setDue(true), MAP_START_MAX_WAIT_MS) : undefined), [near]);
  return [due, place];
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
  /** Start only once on or near the screen (default: at the first idle moment). */
  whenShown?: boolean;
};

export function LazyMap({ unavailableText, whenShown = false, ...props }: LazyMapProps) {
  const say = useSay();
  const [failed, setFailed] = useState(() => !hasWebGL2());
  const [due, place] = useStartWhenShown(whenShown);
  const fallback = (
    <Alert severity="info" data-testid="map-unavailable">
      {unavailableText ?? say('map.unavailable')}
    </Alert>
  );
  if (failed) return fallback;
  // An image role: a plain span may not carry a name (axe, Lighthouse: aria-prohibited-attr).
  const loading = <Skeleton ref={place} variant="rectangular" height={props.height} role="img" aria-label={say('map.loading')} />;
  if (!due) return loading;
  return (
    <MapBoundary fallback={fallback}>
      <Suspense fallback={loading}>
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
