import { useEffect, useState } from 'react';
import { storeSupported } from '../../lib/data';

/** Whether the browser can keep the offline store: null while the probe runs, then its answer. */
export function useStoreSupport(): boolean | null {
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void storeSupported().then((answer) => {
      if (live) setSupported(answer);
    });
    return () => {
      live = false;
    };
  }, []);
  return supported;
}
