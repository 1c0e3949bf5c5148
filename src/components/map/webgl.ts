// MapLibre 6 draws with WebGL 2 only. Checking first avoids loading its 1 MB for a device that
// cannot show it (old phones, some locked-down PCs, tests).
let supported: boolean | null = null;

export function hasWebGL2(): boolean {
  if (supported !== null) return supported;
  try {
    const canvas = document.createElement('canvas');
    supported = typeof WebGL2RenderingContext !== 'undefined' && canvas.getContext('webgl2') !== null;
  } catch {
    supported = false;
  }
  return supported;
}
