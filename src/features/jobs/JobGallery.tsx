// The images of a job (jb_img1..3): thumbnails from the server or, before upload, from this
// device; a click opens a larger view with previous/next.
import { useState } from 'react';
import { Box, ButtonBase, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Button, IconButton, Typography } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { imageNumber, SourceImage, THUMB_TILE_SX, toastImageFailure, type ExistingImage } from '../../components/images';
import { useSay } from '../../lib/session';

type FailedHandler = (slot: string) => (error: unknown) => void;

/** product.md §8 'Error getting image1/2/3', once per page (besides the mark in place). */
function useFailureToast(): FailedHandler {
  const say = useSay();
  return (slot) => (error) => toastImageFailure(say('errors.jobImageTitle', { n: imageNumber(slot) }), error);
}

function Viewer({
  images,
  index,
  onIndex,
  onClose,
  failed,
}: {
  images: readonly ExistingImage[];
  index: number | null;
  onIndex: (i: number) => void;
  onClose: () => void;
  failed: FailedHandler;
}) {
  const say = useSay();
  const current = index === null ? null : images[index];
  const count = images.length;
  const step = (delta: number) => index !== null && onIndex((index + delta + count) % count);
  return (
    <Dialog
      open={current !== null && current !== undefined}
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      aria-labelledby="job-image-title"
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight') step(1);
        if (event.key === 'ArrowLeft') step(-1);
      }}
    >
      <DialogTitle id="job-image-title">{index !== null && say('jobs.images.viewerTitle', { n: index + 1, count })}</DialogTitle>
      <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 1, px: { xs: 1, sm: 3 } }}>
        {count > 1 && (
          <IconButton onClick={() => step(-1)} aria-label={say('jobs.images.previous')}>
            <ChevronLeftIcon />
          </IconButton>
        )}
        <Box sx={{ flexGrow: 1, minWidth: 0, display: 'grid', placeItems: 'center', minHeight: 200 }} data-testid="job-image-large">
          {current && index !== null && (
            <SourceImage
              key={current.slot}
              source={current.source}
              alt={say('images.alt', { n: index + 1 })}
              fit="contain"
              onFailed={failed(current.slot)}
            />
          )}
        </Box>
        {count > 1 && (
          <IconButton onClick={() => step(1)} aria-label={say('jobs.images.next')}>
            <ChevronRightIcon />
          </IconButton>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{say('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function JobGallery({ images }: { images: readonly ExistingImage[] }) {
  const say = useSay();
  const [open, setOpen] = useState<number | null>(null);
  const failed = useFailureToast();
  if (!images.length) return <Typography color="text.secondary">{say('jobs.images.none')}</Typography>;
  return (
    <>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' }} data-testid="job-images">
        {images.map((image, index) => (
          <ButtonBase
            key={image.slot}
            onClick={() => setOpen(index)}
            // The name holds the chip's visible text too (WCAG 2.5.3, label in name).
            aria-label={say(image.pending ? 'jobs.images.openPending' : 'jobs.images.open', { n: index + 1 })}
            sx={THUMB_TILE_SX}
          >
            <SourceImage source={image.source} alt={say('images.alt', { n: index + 1 })} fit="cover" onFailed={failed(image.slot)} />
            {image.pending && (
              // Dark and opaque: readable over any photo (a warning orange is not, for small text).
              <Chip
                size="small"
                label={say('images.notUploaded')}
                sx={{
                  position: 'absolute',
                  left: 4,
                  bottom: 4,
                  maxWidth: 'calc(100% - 8px)',
                  bgcolor: 'rgba(0, 0, 0, 0.78)',
                  color: '#fff',
                }}
              />
            )}
          </ButtonBase>
        ))}
      </Box>
      <Viewer images={images} index={open} onIndex={setOpen} onClose={() => setOpen(null)} failed={failed} />
    </>
  );
}
