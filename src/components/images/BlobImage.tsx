// An image held as a Blob (picked on the device, stored offline, or fetched with the token), and
// an image known by its source, with its loading and unavailable states.
import { useEffect, useRef } from 'react';
import { Box, CircularProgress } from '@mui/material';
import BrokenImageIcon from '@mui/icons-material/BrokenImage';
import { useImageBlob, type ImageSource } from './sources';
import { useSay } from '../../lib/session';

/** `cover` fills a thumbnail; `contain` shows the whole picture, at most 70 % of the screen high. */
export type ImageFit = 'cover' | 'contain';

/** A square thumbnail's tile (the pickers' and the record pages' galleries): the image, its
 * spinner or its broken mark centred on a light ground, a chip placed over its corner. */
export const THUMB_TILE_SX = {
  position: 'relative',
  aspectRatio: '1',
  borderRadius: 1,
  overflow: 'hidden',
  bgcolor: 'action.hover',
  display: 'grid',
  placeItems: 'center',
} as const;

const FIT_SX = {
  cover: { width: '100%', height: '100%', objectFit: 'cover', display: 'block' },
  contain: { maxWidth: '100%', maxHeight: '70vh', display: 'block', mx: 'auto' },
} as const;

/** Sets the <img>'s source to an object URL of `blob` and revokes it when done. Done on the
 * element rather than through state so that StrictMode's double effects never show a revoked URL. */
export function BlobImage({ blob, alt, fit = 'cover' }: { blob: Blob; alt: string; fit?: ImageFit }) {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(blob);
    if (ref.current) ref.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return <Box component="img" ref={ref} alt={alt} sx={FIT_SX[fit]} />;
}

/** Said in place of an image that could not be read (offline without a copy, deleted since). */
export function ImageUnavailable() {
  const say = useSay();
  return (
    <Box sx={{ textAlign: 'center', p: 1, typography: 'caption', color: 'text.secondary' }}>
      <BrokenImageIcon aria-hidden />
      <div>{say('images.unavailable')}</div>
    </Box>
  );
}

/** An image from the server or this device: a spinner while it loads, a note if it cannot be. */
export function SourceImage({
  source,
  alt,
  fit = 'cover',
  onFailed,
}: {
  source: ImageSource;
  alt: string;
  fit?: ImageFit;
  onFailed?: (error: unknown) => void;
}) {
  const state = useImageBlob(source, onFailed);
  if (state.status === 'ready') return <BlobImage blob={state.blob} alt={alt} fit={fit} />;
  if (state.status === 'loading') return <CircularProgress size={24} aria-label={alt} />;
  return <ImageUnavailable />;
}
