// Up to N images per record (ADR-0025: "take a photo on a phone or pick a file; shrunk on the
// device to at most 1600 px before it is stored or sent; preview and remove"). Controlled: the
// screen keeps the changes and hands them to the data layer on save.
import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, IconButton, Typography } from '@mui/material';
import { AmberChip } from '../AmberChip';
import { BlobImage, SourceImage, THUMB_TILE_SX } from './BlobImage';
import { FileInputs } from './FileInputs';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import CloseIcon from '@mui/icons-material/Close';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import type { ImageInput } from '../../lib/data';
import { ImageRejected, shrinkImage } from './shrink';
import type { ExistingImage, ImageSource } from './sources';
import { useSay } from '../../lib/session';

/** What to save: new images by slot (`create/update(entity, key, values, images)`) and the
 * slots to empty (the multipart field `removeImages` of PUT). */
export interface ImageChanges {
  images: ImageInput[];
  removeImages: string[];
}

export const NO_IMAGE_CHANGES: ImageChanges = { images: [], removeImages: [] };

/** The controlled part both pickers share (this one and FileSlots): what the record has, the
 * changes the screen keeps, and whether they may change. */
export interface ImageChangesProps {
  /** What the record has now (useRecordImages). */
  existing?: readonly ExistingImage[];
  value: ImageChanges;
  onChange: (changes: ImageChanges) => void;
  disabled?: boolean;
}

export interface ImagePickerProps extends ImageChangesProps {
  /** The record's image slots in order (entity.images: sp_img1..3, jb_img1..3). */
  slots: readonly string[];
  /** At most this many images (default 3, never more than the slots). */
  max?: number;
  /** Heading above the thumbnails. */
  label?: string;
}

interface Shown {
  slot: string;
  kind: 'new' | 'existing';
  blob?: Blob;
  source?: ImageSource;
  pending?: boolean;
}

/** Slots in use: new images, and existing ones not marked for removal. */
function shownImages(slots: readonly string[], existing: readonly ExistingImage[], value: ImageChanges): Shown[] {
  return slots.flatMap((slot): Shown[] => {
    const added = value.images.find((i) => i.slot === slot);
    if (added) return [{ slot, kind: 'new', blob: added.blob }];
    const old = existing.find((i) => i.slot === slot);
    return old && !value.removeImages.includes(slot) ? [{ slot, kind: 'existing', source: old.source, pending: old.pending }] : [];
  });
}

export function ImagePicker({ slots, max = 3, existing = [], value, onChange, disabled, label }: ImagePickerProps) {
  const t = useSay();
  const camera = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const usable = slots.slice(0, Math.min(max, slots.length));
  const shown = shownImages(usable, existing, value);
  const full = shown.length >= usable.length;

  const add = async (files: readonly File[]) => {
    setBusy(true);
    const free = usable.filter((slot) => !shown.some((s) => s.slot === slot));
    const added: ImageInput[] = [];
    const errors: string[] = [];
    for (const file of files) {
      const slot = free.shift();
      if (!slot) {
        errors.push(t('images.tooMany', { max: usable.length }));
        break;
      }
      try {
        const image = await shrinkImage(file, file.name);
        added.push({ slot, blob: image.blob, name: image.name });
      } catch (error) {
        free.unshift(slot);
        errors.push(t(`images.error.${error instanceof ImageRejected ? error.reason : 'unreadable'}`, { name: file.name }));
      }
    }
    const filled = added.map((i) => i.slot);
    onChange({ images: [...value.images, ...added], removeImages: value.removeImages.filter((s) => !filled.includes(s)) });
    setProblems(errors);
    setBusy(false);
  };

  const remove = (item: Shown) => {
    if (item.kind === 'new') onChange({ ...value, images: value.images.filter((i) => i.slot !== item.slot) });
    else onChange({ ...value, removeImages: [...value.removeImages, item.slot] });
  };

  const onFiles = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    input.value = ''; // the same file can be picked again after a removal
    if (files.length) void add(files);
  };

  return (
    <Box
      component="fieldset"
      sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }}
      disabled={disabled}
    >
      <Typography component="legend" variant="subtitle2">
        {label ?? t('images.title')} ({t('images.count', { count: shown.length, max: usable.length })})
      </Typography>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))', maxWidth: 480 }}>
        {shown.map((item, index) => (
          <Box key={item.slot} sx={THUMB_TILE_SX}>
            {item.blob && <BlobImage blob={item.blob} alt={t('images.alt', { n: index + 1 })} />}
            {item.source && <SourceImage source={item.source} alt={t('images.alt', { n: index + 1 })} />}
            {(item.kind === 'new' || item.pending) && (
              // On a paper background: readable over any photo, with the contrast the amber text needs.
              <Box
                sx={{
                  position: 'absolute',
                  left: 4,
                  bottom: 4,
                  maxWidth: 'calc(100% - 8px)',
                  bgcolor: 'background.paper',
                  borderRadius: 4,
                }}
              >
                <AmberChip label={t('images.notUploaded')} />
              </Box>
            )}
            {!disabled && (
              <IconButton
                size="small"
                disabled={busy}
                aria-label={t('images.remove', { n: index + 1 })}
                onClick={() => remove(item)}
                sx={{ position: 'absolute', top: 4, right: 4, bgcolor: 'background.paper', '&:hover': { bgcolor: 'background.paper' } }}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            )}
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button
          variant="outlined"
          startIcon={<PhotoCameraIcon />}
          disabled={disabled || busy || full}
          onClick={() => camera.current?.click()}
        >
          {t('images.takePhoto')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<AddPhotoAlternateIcon />}
          disabled={disabled || busy || full}
          onClick={() => picker.current?.click()}
        >
          {t('images.pickFile')}
        </Button>
        {busy && <CircularProgress size={20} aria-label={t('images.processing')} />}
        {full && !busy && (
          <Typography variant="body2" color="text.secondary">
            {t('images.full', { max: usable.length })}
          </Typography>
        )}
      </Box>
      <FileInputs
        camera={camera}
        picker={picker}
        accept="image/*"
        multiple
        onFiles={onFiles}
        testIds={{ camera: 'image-camera', picker: 'image-file' }}
      />
      {problems.length > 0 && (
        <Alert severity="warning" onClose={() => setProblems([])}>
          {problems.map((p) => (
            <div key={p}>{p}</div>
          ))}
        </Alert>
      )}
    </Box>
  );
}
