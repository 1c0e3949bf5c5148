// The images of a service on its page: thumbnails (server images fetched with the token, local
// ones from the device) that open larger in a dialog.
import { useState } from 'react';
import { Box, ButtonBase, Chip, CircularProgress, Dialog, DialogActions, DialogContent, Button, Typography } from '@mui/material';
import { BlobImage, imageNumber, ImageUnavailable, THUMB_TILE_SX, toastImageFailure, type ExistingImage } from '../../components/images';
import { useImageBlob } from '../../components/images/sources';
import { WARNING_FILLED_SX } from '../../components';
import { useSay } from '../../lib/session';

function Thumb({ image, alt, onOpen }: { image: ExistingImage; alt: string; onOpen: (blob: Blob) => void }) {
  const say = useSay();
  // product.md §8 'Error getting SP image1/2/3', once per page (besides the mark in place).
  const state = useImageBlob(image.source, (error) =>
    toastImageFailure(say('errors.serviceImageTitle', { n: imageNumber(image.slot) }), error),
  );
  return (
    <Box sx={THUMB_TILE_SX} data-testid="service-image" data-slot={image.slot}>
      {state.status === 'loading' && <CircularProgress size={24} aria-label={alt} />}
      {state.status === 'failed' && <ImageUnavailable />}
      {state.status === 'ready' && (
        <ButtonBase
          onClick={() => onOpen(state.blob)}
          aria-label={say('services.page.openImage', { name: alt })}
          sx={{ width: '100%', height: '100%' }}
        >
          <BlobImage blob={state.blob} alt={alt} />
        </ButtonBase>
      )}
      {image.pending && (
        <Chip
          size="small"
          color="warning"
          label={say('images.notUploaded')}
          sx={{ ...WARNING_FILLED_SX, position: 'absolute', left: 4, bottom: 4, pointerEvents: 'none' }}
        />
      )}
    </Box>
  );
}

export function ServiceImages({ images }: { images: readonly ExistingImage[] }) {
  const say = useSay();
  const [open, setOpen] = useState<{ blob: Blob; alt: string } | null>(null);
  if (!images.length) {
    return <Typography color="text.secondary">{say('services.page.noImages')}</Typography>;
  }
  return (
    <>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', maxWidth: 560 }}>
        {images.map((image, index) => {
          const alt = say('images.alt', { n: index + 1 });
          return <Thumb key={image.slot} image={image} alt={alt} onOpen={(blob) => setOpen({ blob, alt })} />;
        })}
      </Box>
      <Dialog open={open !== null} onClose={() => setOpen(null)} maxWidth="lg" aria-label={open?.alt}>
        <DialogContent sx={{ p: 1 }}>{open && <BlobImage blob={open.blob} alt={open.alt} fit="contain" />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>{say('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
